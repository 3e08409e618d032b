import { Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { redisReady } from '../redis/redis-options.js';
import { InjectRedis } from '../redis/redis.module.js';
import { withTimeout } from '../common/with-timeout.js';
import { HealthRepository } from './health.repository.js';

const CHECK_TIMEOUT_MS = 1000;

export type DependencyState = 'ok' | 'unavailable';

@Injectable()
export class HealthService {
  constructor(
    private readonly repository: HealthRepository,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  /** Whether PostgreSQL and Redis both answer right now. */
  async dependencies(): Promise<{ database: DependencyState; redis: DependencyState }> {
    const [database, redis] = await Promise.all([
      this.probe(() => this.repository.databaseAnswers()),
      this.probe(async () => {
        await redisReady(this.redis, CHECK_TIMEOUT_MS);
        return this.redis.ping();
      }),
    ]);
    return { database, redis };
  }

  private async probe(check: () => Promise<unknown>): Promise<DependencyState> {
    try {
      await withTimeout(check(), CHECK_TIMEOUT_MS);
      return 'ok';
    } catch {
      return 'unavailable';
    }
  }
}
