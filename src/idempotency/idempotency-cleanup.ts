import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { IdempotencyStore } from './idempotency.store.js';

const EVERY_HOUR_MS = 60 * 60 * 1000;

/** Deletes expired idempotency keys once an hour (harmless when every replica does it). */
@Injectable()
export class IdempotencyCleanup implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyCleanup.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly store: IdempotencyStore) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.purge(), EVERY_HOUR_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async purge(): Promise<number> {
    try {
      const removed = await this.store.purgeExpired();
      if (removed > 0) this.logger.log(`Removed ${removed} expired idempotency keys`);
      return removed;
    } catch (error) {
      this.logger.warn(`Idempotency cleanup failed: ${String(error)}`);
      return 0;
    }
  }
}
