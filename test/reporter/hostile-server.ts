import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Asked {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/**
 * A server on loopback that answers as `answer` says: the reporter's view of a broken or hostile
 * service (or a proxy that pretends to be it). It records what it was asked.
 */
export class HostileServer {
  readonly asked: Asked[] = [];
  url = '';
  private server!: Server;

  constructor(private readonly answer: (asked: Asked, res: ServerResponse) => void) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const asked = {
          method: req.method ?? 'GET',
          path: (req.url ?? '/').split('?')[0],
          headers: req.headers,
        };
        this.asked.push(asked);
        this.answer(asked, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Answers JSON, as the service does. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
