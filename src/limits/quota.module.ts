import { Module } from '@nestjs/common';
import { MonthlyQuotaService } from './monthly-quota.service.js';
import { QuotaRepository } from './quota.repository.js';

/**
 * The monthly quota (PostgreSQL only): for the access guard, the organizations' usage and
 * tools that have no Redis. The per-minute limits are `RateLimitsModule`'s.
 */
@Module({
  providers: [MonthlyQuotaService, QuotaRepository],
  exports: [MonthlyQuotaService],
})
export class QuotaModule {}
