import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '../errors/error-codes.js';

/** How Node's parser errors are answered: status, code, message, field (as Node's own handler picks statuses). */
function answerFor(code: string | undefined): [number, ErrorCode, string, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        ErrorCode.InvalidRequest,
        'The request line and headers are larger than 16 KiB; send long filters in fewer characters.',
        'headers',
      ];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, ErrorCode.PayloadTooLarge, 'The chunk extensions are too large.', 'body'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, ErrorCode.InvalidRequest, 'The request did not arrive in time.', 'request'];
    default:
      return [400, ErrorCode.InvalidRequest, 'The request is not valid HTTP/1.1.', 'request'];
  }
}

/** Whether the error is about the HTTP request (the parser's, or its time running out). */
function fromHttp(code: string | undefined): boolean {
  return code !== undefined && (code.startsWith('HPE_') || code === 'ERR_HTTP_REQUEST_TIMEOUT');
}

/**
 * Node's HTTP parser refuses some requests before the application sees them (a request line
 * and headers over 16 KiB: 431; bytes that are not HTTP: 400) and answers them with a bare
 * status line. These answers get the contract's envelope and an `X-Request-Id` too, so every
 * response a client can receive is JSON it can read (CONTRACT §1). As Node's own handler
 * does, nothing is written into a response already under way, and the socket is closed.
 * Anything else (a reset, a TLS handshake that failed or timed out) only closes the socket:
 * over TLS nothing can be written before the handshake, and a write would wait for it forever.
 * An `Expect` other than `100-continue`, which Node answers 417 with a bare status line too,
 * gets the envelope as well.
 */
export function answerClientErrorsInEnvelope(server: Server): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    const inResponse = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })
      ._httpMessage?.headersSent;
    if (!socket.writable || inResponse || !fromHttp(error.code)) return void socket.destroy();
    const [status, code, message, field] = answerFor(error.code);
    const body = JSON.stringify({ error: code, message, details: { field } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
      () => socket.destroy(),
    );
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({
      error: ErrorCode.InvalidRequest,
      message: 'The only expectation served is Expect: 100-continue.',
      details: { field: 'Expect' },
    });
    res.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': randomUUID(),
      Connection: 'close',
    });
    res.end(body);
  });
}
