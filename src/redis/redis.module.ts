import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Settings } from '../config/settings.js';
import { logOutages, redisOptionsFromUrl } from './redis-options.js';

/** Injection token of the shared Redis client (rate limits, cross-replica signals, readiness). */
export const REDIS = Symbol('REDIS');
export const InjectRedis = () => Inject(REDIS);

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@InjectRedis() private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [Settings],
      useFactory: (settings: Settings) => {
        const redis = new Redis({
          ...redisOptionsFromUrl(settings.redisUrl),
          keyPrefix: `${settings.redisPrefix}:`,
          // Fail fast while Redis is away instead of queueing commands in memory.
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: 2000,
          retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
        });
        logOutages(redis, redis, 'Redis');
        return redis;
      },
    },
    RedisCloser,
  ],
  exports: [REDIS],
})
export class RedisModule {}
