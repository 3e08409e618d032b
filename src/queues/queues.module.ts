import { BullModule, getQueueToken } from '@nestjs/bull';
import { Global, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import { Settings } from '../config/settings.js';
import { logOutages, redisOptionsFromUrl } from '../redis/redis-options.js';
import { ALL_QUEUES } from './queues.constants.js';

const registeredQueues = BullModule.registerQueue(...ALL_QUEUES.map((name) => ({ name })));

/**
 * Bull's connections (three per queue) report their errors as the queue's `error` event; each
 * queue's outage is logged once when it starts and once when its connection is back.
 */
@Injectable()
class QueueOutageLog implements OnModuleInit {
  constructor(private readonly modules: ModuleRef) {}

  onModuleInit(): void {
    for (const name of ALL_QUEUES) {
      const queue = this.modules.get<Queue>(getQueueToken(name), { strict: false });
      logOutages(queue, queue.client, `Redis (queue ${name})`);
    }
  }
}

@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [Settings],
      useFactory: (settings: Settings) => ({
        redis: redisOptionsFromUrl(settings.redisUrl),
        prefix: `${settings.redisPrefix}:bull`,
        settings: {
          // A live worker renews its job's lock; a killed one's job is picked up again soon
          // after the lock lapses (the delivery's own lease keeps that from sending twice).
          lockDuration: settings.webhookTimeoutMs + 10_000,
          stalledInterval: 5_000,
          maxStalledCount: 100,
        },
      }),
    }),
    registeredQueues,
  ],
  providers: [QueueOutageLog],
  exports: [registeredQueues],
})
export class QueuesModule {}
