import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Settings } from '../config/settings.js';
import { ChannelListener } from '../database/notifications.js';
import { Transactions } from '../database/transactions.js';
import { EVENTS_CHANNEL, EventsRepository, RELAY_BATCH } from '../events/events.repository.js';
import { withTimeout } from '../common/with-timeout.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveriesService } from './deliveries.service.js';

const POLL_MS = 1_000;
const CLEANUP_MS = 60 * 60 * 1000;

/**
 * Moves committed events from the outbox to deliveries (one per matching subscription) and
 * wakes workers for them. Woken by NOTIFY right after the change commits, with polling as
 * the fallback. Events are claimed by status with FOR UPDATE SKIP LOCKED, so any number of
 * replicas relay side by side without skipping an event that committed out of order. The
 * sweeper re-enqueues anything overdue, from the database's record of what is owed.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private listener: ChannelListener | null = null;
  private timers: NodeJS.Timeout[] = [];
  private relaying: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly settings: Settings,
    private readonly transactions: Transactions,
    private readonly events: EventsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly deliveries: DeliveriesService,
  ) {}

  onApplicationBootstrap(): void {
    this.listener = new ChannelListener(this.settings.databaseUrl, EVENTS_CHANNEL, {
      notification: () => void this.relay(),
      reconnected: () => void this.relay(),
      disconnected: (error) =>
        this.logger.warn(`Outbox listener not connected (polling meanwhile): ${String(error)}`),
    });
    this.listener.start();
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(
        () => void work().catch((e: unknown) => this.logger.warn(String(e))),
        ms,
      );
      timer.unref();
      this.timers.push(timer);
    };
    every(POLL_MS, () => this.relay());
    every(this.settings.webhookSweepIntervalMs, () => this.sweep());
    every(CLEANUP_MS, () => this.cleanup());
    void this.relay();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await withTimeout(this.relaying ?? Promise.resolve(), 5_000).catch(() => undefined);
    await this.listener?.stop();
  }

  /** Relays until the outbox is empty; concurrent calls fold into one more pass. */
  relay(): Promise<void> {
    if (this.relaying) {
      this.again = true;
      return this.relaying;
    }
    this.relaying = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.relayBatch()) === RELAY_BATCH);
        } while (this.again && !this.stopped);
      } catch (error) {
        this.logger.warn(`Relay pass failed: ${String(error)}`);
      } finally {
        this.relaying = null;
      }
    })();
    return this.relaying;
  }

  private async relayBatch(): Promise<number> {
    const { events, deliveries } = await this.transactions.begin(async () => {
      const claimed = await this.events.claimUnrelayed();
      if (claimed.length === 0) return { events: 0, deliveries: [] as string[] };
      const ids = claimed.map((e) => e.id);
      const created = await this.deliveryRows.createForEvents(ids);
      await this.events.markRelayed(ids);
      return { events: claimed.length, deliveries: created };
    });
    await Promise.all(
      deliveries.map((deliveryId) => this.deliveries.enqueue({ deliveryId, attempt: 1 })),
    );
    return events;
  }

  /** Re-enqueues deliveries whose job went missing, and relays whatever was missed. */
  async sweep(): Promise<number> {
    const due = await this.deliveryRows.overdue();
    await Promise.all(
      due.map((d) =>
        this.deliveries.enqueue({ deliveryId: d.id, attempt: d.attempts + 1 }, 0, true),
      ),
    );
    await this.relay();
    return due.length;
  }

  /** Deletes finished deliveries and relayed events past the retention period. */
  async cleanup(): Promise<void> {
    const days = this.settings.webhookLogRetentionDays;
    await this.deliveryRows.deleteFinishedBefore(days);
    await this.events.deleteRelayedBefore(days);
  }
}
