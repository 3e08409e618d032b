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
      }),
    }),
    registeredQueues,
  ],
  exports: [registeredQueues],
})
export class QueuesModule {}
