import pg from 'pg';

/** What a `ChannelListener` tells its owner. */
export interface ChannelEvents {
  /** A NOTIFY on the channel arrived, with its payload. */
  notification(payload: string): void;
  /**
   * The listener (re)connected: notifications sent while it was away are lost, so the owner
   * catches up here. Not called on the first connection.
   */
  reconnected?(): void;
  /**
   * LISTEN took effect, the first time too (`first`): a NOTIFY sent before it was not heard,
   * so an owner whose callers started waiting before the first connection catches up here.
   */
  listening?(first: boolean): void;
  /** The connection failed; the listener tries again a second later. */
  disconnected?(error: unknown): void;
}

/**
 * A dedicated connection that LISTENs on one channel and reconnects a second after it fails
 * (a pooled connection cannot: LISTEN belongs to the session). One per process and channel,
 * however many callers wait on it.
 */
export class ChannelListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private connectedOnce = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly events: ChannelEvents,
  ) {}

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    const retry = (error: unknown) => {
      client.removeAllListeners();
      client.end().catch(() => undefined);
      if (this.client === client) this.client = null;
      this.events.disconnected?.(error);
      if (!this.stopped) setTimeout(() => void this.connect(), 1_000).unref();
    };
    client.on('error', retry);
    client.on('notification', (message) => this.events.notification(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.client = client;
      const first = !this.connectedOnce;
      this.connectedOnce = true;
      if (!first) this.events.reconnected?.();
      this.events.listening?.(first);
    } catch (error) {
      retry(error);
    }
  }
}
