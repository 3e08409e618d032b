import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { AddressPolicy } from './address-policy.js';
import { WebhookSender } from './webhook-sender.js';

/**
 * A receiver speaking raw HTTP/1.1: it answers the first request on each connection with 204
 * and keeps the connection open, then closes it on the next request without answering, as a
 * receiver whose keep-alive timer fired just as that request went out would.
 */
async function closingReceiver(): Promise<{
  server: Server;
  url: string;
  connections: () => number;
}> {
  let connections = 0;
  const server = createServer((socket: Socket) => {
    connections++;
    let requests = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // Each request here has a small body that arrives with its headers.
      while (buffered.includes('\r\n\r\n')) {
        const end = buffered.indexOf('\r\n\r\n') + 4;
        const length = Number(/content-length: (\d+)/i.exec(buffered)?.[1] ?? 0);
        if (buffered.length < end + length) return;
        buffered = buffered.slice(end + length);
        if (++requests === 1) {
          socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
        } else {
          socket.resetAndDestroy();
        }
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/hook`, connections: () => connections };
}

describe('WebhookSender', () => {
  it('sends again on a new connection when a kept-alive one is closed under the request', async () => {
    const receiver = await closingReceiver();
    const sender = new WebhookSender(new AddressPolicy(['127.0.0.1']), 5000);
    try {
      const first = await sender.send(receiver.url, '{"n":1}', {});
      expect(first).toMatchObject({ status: 204, error: null });
      // Goes out on the kept-alive connection, which is reset: sent again on a new one.
      const second = await sender.send(receiver.url, '{"n":2}', {});
      expect(second).toMatchObject({ status: 204, error: null });
      expect(receiver.connections()).toBe(2);
    } finally {
      sender.close();
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  });

  it('sends only once more: a receiver that resets every time is a failed attempt', async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.once('data', () => socket.resetAndDestroy());
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const sender = new WebhookSender(new AddressPolicy(['127.0.0.1']), 5000);
    try {
      const outcome = await sender.send(`http://127.0.0.1:${port}/hook`, '{}', {});
      expect(outcome.status).toBeNull();
      expect(outcome.error).toMatch(/ECONNRESET|socket hang up/);
      // A fresh connection that fails is not sent again.
      expect(connections).toBe(1);
    } finally {
      sender.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps a receiver’s answer as storable text: cut between code points, NUL replaced', async () => {
    // 2,047 units, then an emoji straddling the 2 KiB cut; a NUL before it.
    const answer = `a\u0000${'b'.repeat(2045)}\u{1F600}after`;
    const server = createHttpServer((_req, res) => res.writeHead(500).end(answer));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const sender = new WebhookSender(new AddressPolicy(['127.0.0.1']), 5000);
    try {
      const outcome = await sender.send(`http://127.0.0.1:${port}/hook`, '{}', {});
      expect(outcome.status).toBe(500);
      expect(outcome.body).toBe(`a\uFFFD${'b'.repeat(2045)}`);
    } finally {
      sender.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('does not send once the time limit, counted from the caller’s start, has passed', async () => {
    let requests = 0;
    const server = createHttpServer((_req, res) => {
      requests++;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const sender = new WebhookSender(new AddressPolicy(['127.0.0.1']), 200);
    try {
      // A worker that claimed the attempt 300 ms ago and stalled since: its lease may be gone.
      const late = await sender.send(
        `http://127.0.0.1:${port}/hook`,
        '{}',
        {},
        performance.now() - 300,
      );
      expect(late).toMatchObject({
        status: null,
        error: 'timed out after 200 ms, before it was sent',
      });
      // Its duration is its own (nothing was exchanged), not the time since the claim.
      expect(late.durationMs).toBeLessThan(100);
      // Within the limit it goes out.
      const inTime = await sender.send(
        `http://127.0.0.1:${port}/hook`,
        '{}',
        {},
        performance.now() - 100,
      );
      expect(inTime).toMatchObject({ status: 204, error: null });
      expect(requests).toBe(1);
    } finally {
      sender.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
