import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { redisReady } from '../redis/redis-options.js';
import { InjectRedis } from '../redis/redis.module.js';
import { withTimeout } from '../common/with-timeout.js';

const CHECK_TIMEOUT_MS = 1000;

export type DependencyState = 'ok' | 'unavailable';

@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  /** Whether PostgreSQL and Redis both answer right now. */
  async dependencies(): Promise<{ database: DependencyState; redis: DependencyState }> {
    const [database, redis] = await Promise.all([
      this.probe(() => this.dataSource.query('SELECT 1')),
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
