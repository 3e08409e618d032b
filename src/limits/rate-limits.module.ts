import { Module } from '@nestjs/common';
import { LimitsInternalController } from './limits.internal.controller.js';
import { MinuteLimiter } from './minute-limiter.js';

/**
 * The per-minute limits (in this process, or shared through Redis): the access guard's only
 * (and shown, read-only, in the console).
 * The monthly quota, which other modules read too, is `QuotaModule`'s.
 */
@Module({
  controllers: [LimitsInternalController],
  providers: [MinuteLimiter],
  exports: [MinuteLimiter],
})
export class RateLimitsModule {}
