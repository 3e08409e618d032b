import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a server (PostgreSQL here), to play its outages: `up`
 * forwards, `refuse` closes every connection at once (a server that is down), `blackhole`
 * accepts connections and drops every byte both ways (a server unreachable through the
 * network: nothing answers, nothing fails).
 */
export class TcpProxy {
  mode: 'up' | 'refuse' | 'blackhole' = 'up';
  private readonly sockets = new Set<Socket>();
  private server!: Server;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  private accept(client: Socket): void {
    this.track(client);
    if (this.mode === 'refuse') return void client.destroy();
    if (this.mode === 'blackhole') return void client.on('data', () => undefined);
    const upstream = connect(this.targetPort, this.targetHost);
    this.track(upstream);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (this.mode === 'up') to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Cuts every open connection (as a database restart does). */
  cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.cutAll();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
