import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { AddressInfo } from 'node:net';
import {
  HEADERS_TIMEOUT_MS,
  TIMEOUT_CHECK_INTERVAL_MS,
} from '../../src/common/http/connection-limits.js';
import { listenOnLoopback, startApp, type TestApp } from '../support/app.js';

const PARTIAL_HEADERS = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';
/** Longest a connection past the headers timeout may stay open: the timeout, one check, slack. */
const CLOSED_WITHIN_MS = HEADERS_TIMEOUT_MS + TIMEOUT_CHECK_INTERVAL_MS + 1_500;

interface Watched {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<{ afterMs: number; received: string }>;
}

/** `socket`, with what it receives until it closes and when (from now). */
function watch(socket: Socket): Watched {
  const started = performance.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) =>
    socket.on('close', () => resolve({ afterMs: performance.now() - started, received })),
  );
  return { socket, closed };
}

/** A plain TCP connection to `port`, once connected. */
async function open(port: number): Promise<Watched> {
  const socket = tcpConnect(port, '127.0.0.1');
  const watched = watch(socket);
  await new Promise<void>((resolve) => {
    socket.once('connect', () => resolve());
    socket.once('close', () => resolve());
  });
  return watched;
}

/** Whether the server closed the connection within `ms` without answering anything. */
async function closedUnanswered(watched: Watched, ms = 1_000): Promise<boolean> {
  const outcome = await Promise.race([
    watched.closed,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), ms)),
  ]);
  return outcome !== null && outcome.received === '';
}

/** Sends `GET /healthz` on an open connection and answers the status line. */
function healthz(watched: Watched): Promise<string> {
  return new Promise((resolve) => {
    watched.socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0]));
    watched.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  });
}

describe('slow connections', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startApp({ TLS_SELF_SIGNED: 'true', TRUST_PROXY: 'false' });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  // A slowloris client holds a connection (and its TLS buffers) by never finishing its
  // headers: Node's defaults kept each for 60–90 s.
  it('are answered 408 and closed once the headers timeout has passed', async () => {
    const partial = watch(
      tlsConnect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }),
    );
    partial.socket.once('secureConnect', () => partial.socket.write(PARTIAL_HEADERS));
    // One that never finishes its TLS handshake (Node's default: 120 s).
    const silent = watch(tcpConnect(port, '127.0.0.1'));

    const [slow, handshake] = await Promise.all([partial.closed, silent.closed]);
    expect(slow.afterMs).toBeGreaterThan(HEADERS_TIMEOUT_MS - 1_000);
    expect(slow.afterMs).toBeLessThan(CLOSED_WITHIN_MS);
    expect(slow.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(slow.received.slice(slow.received.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'invalid_request',
      message: expect.any(String),
      details: { field: 'request' },
    });
    expect(handshake.afterMs).toBeLessThan(CLOSED_WITHIN_MS);
  }, 30_000);
});

describe('connections per client address', () => {
  let t: TestApp;
  let port: number;
  const held: Watched[] = [];
  beforeAll(async () => {
    // TRUST_PROXY=false: loopback is a client connecting directly, not a proxy.
    t = await startApp({ TRUST_PROXY: 'false', MAX_CONNECTIONS_PER_ADDRESS: '3' });
    port = await listenOnLoopback(t);
  });
  afterEach(() => held.splice(0).forEach((w) => w.socket.destroy()));
  afterAll(() => t.close());

  it('are capped: one past the cap is closed at once, and a place freed is taken again', async () => {
    for (let i = 0; i < 3; i++) held.push(await open(port));
    const refused = await open(port);
    expect(await closedUnanswered(refused)).toBe(true);
    expect(await healthz(held[0])).toBe('HTTP/1.1 200 OK');

    held.shift()?.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const admitted = await open(port);
    held.push(admitted);
    expect(await closedUnanswered(admitted, 300)).toBe(false);
    expect(await healthz(admitted)).toBe('HTTP/1.1 200 OK');
  });
});

describe('connections from a trusted proxy', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // Loopback is a trusted proxy here (the default TRUST_PROXY): it carries everyone's requests.
    t = await startApp({ MAX_CONNECTIONS_PER_ADDRESS: '2' });
    port = await listenOnLoopback(t);
  });
  afterAll(() => t.close());

  it('are not capped per address', async () => {
    const connections = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    try {
      for (const connection of connections) {
        expect(await healthz(connection)).toBe('HTTP/1.1 200 OK');
      }
    } finally {
      connections.forEach((c) => c.socket.destroy());
    }
  });
});

describe('connections per process', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startApp({ MAX_CONNECTIONS: '3' });
    port = await listenOnLoopback(t);
  });
  afterAll(() => t.close());

  it('are capped, whoever opens them', async () => {
    const connections = [];
    for (let i = 0; i < 3; i++) connections.push(await open(port));
    try {
      const refused = await open(port);
      expect(await closedUnanswered(refused)).toBe(true);
      expect(await healthz(connections[2])).toBe('HTTP/1.1 200 OK');
    } finally {
      connections.forEach((c) => c.socket.destroy());
    }
  });
});
