import { Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { redisReady } from '../redis/redis-options.js';
import { InjectRedis } from '../redis/redis.module.js';
import { withTimeout } from '../common/with-timeout.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';

const CHECK_TIMEOUT_MS = 1000;

/** The readiness check's statement: any answer means the database serves queries. */
const DATABASE_ANSWERS = sql('health.databaseAnswers', 'SELECT 1');

export type DependencyState = 'ok' | 'unavailable';

@Injectable()
export class HealthService {
  constructor(
    private readonly transactions: Transactions,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  /** Whether PostgreSQL and Redis both answer right now. */
  async dependencies(): Promise<{ database: DependencyState; redis: DependencyState }> {
    const [database, redis] = await Promise.all([
      // The pool itself, whatever transaction the caller may be in.
      this.probe(() => this.transactions.outside.query(DATABASE_ANSWERS)),
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
