import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { Settings } from '../config/settings.js';
import { redisOptionsFromUrl } from '../redis/redis-options.js';
import { ALL_QUEUES } from './queues.constants.js';

const registeredQueues = BullModule.registerQueue(...ALL_QUEUES.map((name) => ({ name })));

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
  exports: [registeredQueues],
})
export class QueuesModule {}
