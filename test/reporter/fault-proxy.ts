import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';

/**
 * What the proxy does to one request: `forward` it; `drop` the connection before the service
 * sees it; `drop-after` it reached the service (the client never learns the outcome); answer
 * `503` (with `Retry-After: 1`) after the service did the work; answer a per-minute `429`
 * without forwarding; or forward after a `delay`.
 */
export type Fault = 'forward' | 'drop' | 'drop-after' | '503-after' | '429' | { delayMs: number };

export interface ProxiedRequest {
  method: string;
  path: string;
  fault: Fault;
}

/** An HTTP proxy in front of the service that plays `plan`'s faults, for the reporter's retries. */
export class FaultProxy {
  readonly seen: ProxiedRequest[] = [];
  port = 0;
  private server!: Server;

  constructor(
    private readonly targetPort: number,
    /** The fault for the `n`th request (0-based), by its method, path and body. */
    private readonly plan: (method: string, path: string, n: number, body: Buffer) => Fault,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0];
        const body = Buffer.concat(chunks);
        const fault = this.plan(req.method ?? 'GET', path, this.seen.length, body);
        this.seen.push({ method: req.method ?? 'GET', path, fault });
        if (fault === 'drop') return void req.socket.destroy();
        if (fault === '429') {
          res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
          return void res.end(
            JSON.stringify({
              error: 'rate_limit_exceeded',
              message: 'Per-minute limit reached',
              details: { limit: 600, retry_after: 1, window: 'minute' },
            }),
          );
        }
        const delay = typeof fault === 'object' ? fault.delayMs : 0;
        setTimeout(() => {
          this.forward(req, body)
            .then((upstream) => {
              if (fault === 'drop-after') return void req.socket.destroy();
              if (fault === '503-after') {
                res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
                return void res.end(
                  JSON.stringify({
                    error: 'service_unavailable',
                    message: 'try later',
                    details: {},
                  }),
                );
              }
              res.writeHead(upstream.status, upstream.headers);
              res.end(upstream.body);
            })
            .catch(() => req.socket.destroy());
        }, delay);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  private forward(
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: this.targetPort,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'content-length': String(body.length) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined && name !== 'transfer-encoding' && name !== 'connection') {
                headers[name] = value;
              }
            }
            resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
          });
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
