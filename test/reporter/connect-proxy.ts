import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** What the proxy was asked: a tunnel (CONNECT host:port) or a request in absolute form. */
export interface ProxyCall {
  method: string;
  /** `host:port` of a CONNECT, the absolute URL of a forwarded request. */
  target: string;
  /** The `Proxy-Authorization` header sent, if any. */
  authorization?: string;
}

/**
 * A forward proxy on loopback, as corporate networks run them: CONNECT tunnels for https://
 * and absolute-form requests for http://, with optional Basic credentials, or refusing (403).
 * Targets named `localhost` are reached on 127.0.0.1, where the test services listen.
 */
export class ConnectProxy {
  readonly calls: ProxyCall[] = [];
  /** Client connections the proxy accepted (a keep-alive tunnel is one). */
  connections = 0;
  port = 0;
  /** Open tunnels: the server's closeAllConnections does not see them. */
  private readonly tunnels = new Set<Socket>();
  private readonly server: Server;

  constructor(
    private readonly options: {
      credentials?: string;
      refuse?: boolean;
      /** Spoken to over TLS (an https:// proxy) with this certificate and key. */
      tls?: { cert: string; key: string };
    } = {},
  ) {
    const serve = (req: IncomingMessage, res: ServerResponse) => this.forward(req, res);
    this.server = options.tls ? createTlsServer(options.tls, serve) : createServer(serve);
    this.server.on(options.tls ? 'secureConnection' : 'connection', () => this.connections++);
    this.server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) =>
      this.tunnel(req, client, head),
    );
  }

  get name(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The status the proxy answers `req` with instead of serving it, if any. */
  private refusal(req: IncomingMessage, target: string): number | undefined {
    const authorization = req.headers['proxy-authorization'];
    this.calls.push({ method: req.method ?? '', target, authorization });
    const { credentials, refuse } = this.options;
    if (credentials && authorization !== `Basic ${Buffer.from(credentials).toString('base64')}`)
      return 407;
    return refuse ? 403 : undefined;
  }

  private tunnel(req: IncomingMessage, client: Socket, head: Buffer): void {
    const target = req.url ?? '';
    const status = this.refusal(req, target);
    if (status) {
      client.end(
        `HTTP/1.1 ${status} ${status === 407 ? 'Proxy Authentication Required' : 'Forbidden'}\r\n` +
          `${status === 407 ? 'Proxy-Authenticate: Basic realm="corp"\r\n' : ''}Content-Length: 0\r\n\r\n`,
      );
      return;
    }
    const [host, port] = target.split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host === 'localhost' ? '127.0.0.1' : host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      this.tunnels.add(socket);
      socket.on('close', () => this.tunnels.delete(socket));
    }
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const target = req.url ?? '';
    const status = this.refusal(req, target);
    if (status) {
      res.writeHead(status, status === 407 ? { 'Proxy-Authenticate': 'Basic realm="corp"' } : {});
      res.end();
      return;
    }
    const url = new URL(target);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        host: url.hostname === 'localhost' ? '127.0.0.1' : url.hostname,
        port: url.port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }

  close(): Promise<void> {
    for (const socket of this.tunnels) socket.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
