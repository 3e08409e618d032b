import type { INestApplicationContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { ConfigModule } from '../../src/config/config.module.js';
import { DatabaseModule } from '../../src/database/database.module.js';
import { ENTITIES } from '../../src/entities.js';
import { OutboxModule } from '../../src/events/outbox.module.js';
import { LoggingModule } from '../../src/logging/logging.module.js';
import { QueuesModule } from '../../src/queues/queues.module.js';
import { RedisModule } from '../../src/redis/redis.module.js';
import { testSettings } from './app.js';

/**
 * The service tier: `modules` on the infrastructure every process has (settings, logging,
 * PostgreSQL, Redis, queues, the outbox), on the worker's own database and Redis prefix
 * (test/worker-setup.ts), without the HTTP pipeline or a server. A test calls use cases and
 * services with `get` and reads what they wrote with `db`; what only HTTP shows (status codes,
 * headers, body parsing, scopes) stays in the e2e files.
 */
export interface ServiceTier {
  get<T>(type: Type<T>): T;
  db: DataSource;
  close(): Promise<void>;
}

export async function startServiceTier(modules: Type[]): Promise<ServiceTier> {
  const settings = testSettings();
  const moduleRef = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot(settings),
      LoggingModule,
      DatabaseModule.forRoot(ENTITIES),
      RedisModule,
      QueuesModule,
      OutboxModule,
      ...modules,
    ],
  }).compile();
  const context: INestApplicationContext = await moduleRef.init();
  return {
    get: (type) => context.get(type, { strict: false }),
    db: context.get(DataSource),
    close: () => context.close(),
  };
}
