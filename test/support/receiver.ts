import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: {
    id: string;
    type: string;
    created_at: string;
    organization_id: string;
    data: Record<string, unknown>;
  };
  at: number;
}

export type Answer = number | 'hang' | { status: number; location?: string; body?: string };

/**
 * A real HTTP receiver on 127.0.0.1. `respond` decides each answer (status, or 'hang' to
 * keep the request open; a promise of one holds the request until it settles, so a test can
 * look at the sender's state while an attempt is in flight); every request is recorded.
 */
export class Receiver {
  readonly received: Received[] = [];
  respond: (request: Received, index: number) => Answer | Promise<Answer> = () => 200;
  private server: Server | null = null;
  private readonly hanging: ServerResponse[] = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', async () => {
        const entry: Received = {
          headers: req.headers,
          body,
          json: JSON.parse(body || '{}'),
          at: Date.now(),
        };
        this.received.push(entry);
        const answer = await this.respond(entry, this.received.length - 1);
        if (answer === 'hang') {
          this.hanging.push(res);
          return;
        }
        const {
          status,
          location,
          body: text,
        } = typeof answer === 'number' ? { status: answer } : answer;
        if (location) res.setHeader('Location', location);
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end(text ?? `answer ${status}`);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  of(type: string): Received[] {
    return this.received.filter((r) => r.json.type === type);
  }

  async waitFor(predicate: () => boolean, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline)
        throw new Error(
          `receiver: timed out; got ${this.received.map((r) => r.json.type).join(', ')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `read` until `done` holds for what it returned, and returns that; times out naming
 * what it last saw, so a failure says where things stood.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`eventually: timed out after ${ms} ms; last saw ${JSON.stringify(value)}`);
    await sleep(25);
  }
}
