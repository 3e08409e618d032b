import { Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Settings } from '../config/settings.js';
import { InjectRedis } from '../redis/redis.module.js';

const WINDOW_MS = 60_000;

export interface MinuteDecision {
  allowed: boolean;
  limit: number;
  /** Whole seconds until the current window ends (≥ 1). */
  retryAfter: number;
}

interface WindowCount {
  window: number;
  count: number;
}

/**
 * Per-organization calls per minute, in fixed one-minute windows. `memory` counts in this
 * process (SPEC: "held in memory"); `redis` shares one count among all replicas. If Redis is
 * unreachable the limiter lets calls through rather than failing the API (the monthly quota
 * still holds).
 */
@Injectable()
export class MinuteLimiter {
  private readonly logger = new Logger(MinuteLimiter.name);
  private readonly counts = new Map<string, WindowCount>();
  private sweptWindow = 0;
  private lastRedisWarning = 0;

  constructor(
    private readonly settings: Settings,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  async hit(organizationId: string, now = Date.now()): Promise<MinuteDecision> {
    const window = Math.floor(now / WINDOW_MS);
    const count =
      this.settings.rateLimitStore === 'redis'
        ? await this.hitRedis(organizationId, window)
        : this.hitMemory(organizationId, window);
    const limit = this.settings.rateLimitPerMinute;
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    return { allowed: count <= limit, limit, retryAfter };
  }

  /**
   * Takes back a call counted by `hit` at `now` that turned out not to be the organization's
   * (its key was refused). Not awaited: a failure only leaves the minute one call fuller.
   */
  refund(organizationId: string, now = Date.now()): void {
    const window = Math.floor(now / WINDOW_MS);
    if (this.settings.rateLimitStore === 'memory') {
      const entry = this.counts.get(organizationId);
      if (entry && entry.window === window && entry.count > 0) entry.count--;
      return;
    }
    const key = `rate:${organizationId}:${window}`;
    this.redis
      .multi()
      .decr(key)
      .pexpire(key, WINDOW_MS + 5_000)
      .exec()
      .catch(() => undefined);
  }

  private hitMemory(organizationId: string, window: number): number {
    if (window > this.sweptWindow) {
      for (const [id, entry] of this.counts) if (entry.window < window) this.counts.delete(id);
      this.sweptWindow = window;
    }
    const entry = this.counts.get(organizationId);
    // A call stamped in a window that has already given way to the next counts in the next:
    // the newer window's count is never replaced by an older one.
    if (entry && entry.window >= window) return ++entry.count;
    this.counts.set(organizationId, { window, count: 1 });
    return 1;
  }

  private async hitRedis(organizationId: string, window: number): Promise<number> {
    const key = `rate:${organizationId}:${window}`;
    try {
      const results = await this.redis
        .multi()
        .incr(key)
        .pexpire(key, WINDOW_MS + 5_000)
        .exec();
      const [error, count] = results?.[0] ?? [new Error('empty MULTI reply'), 0];
      if (error) throw error;
      return Number(count);
    } catch (error) {
      if (Date.now() - this.lastRedisWarning > 10_000) {
        this.lastRedisWarning = Date.now();
        this.logger.warn(`Per-minute limit skipped, Redis unavailable: ${String(error)}`);
      }
      return 0;
    }
  }
}
