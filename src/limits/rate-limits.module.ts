import { Module } from '@nestjs/common';
import { MinuteLimiter } from './minute-limiter.js';

/**
 * The per-minute limits (in this process, or shared through Redis): the access guard's only.
 * The monthly quota, which other modules read too, is `QuotaModule`'s.
 */
@Module({
  providers: [MinuteLimiter],
  exports: [MinuteLimiter],
})
export class RateLimitsModule {}
