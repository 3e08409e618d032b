import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../errors/error-codes.js';

/**
 * Node's HTTP parser refuses some requests before the application sees them (a request line
 * and headers over 16 KiB: 431; bytes that are not HTTP: 400) and answers them with a bare
 * status line. These answers get the contract's envelope and an `X-Request-Id` too, so every
 * response a client can receive is JSON it can read (CONTRACT §1).
 */
export function answerClientErrorsInEnvelope(server: Server): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify({
      error: ErrorCode.InvalidRequest,
      message: tooLarge
        ? 'The request line and headers are larger than 16 KiB; send long filters in fewer characters.'
        : 'The request is not valid HTTP/1.1.',
      details: { field: tooLarge ? 'headers' : 'request' },
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
