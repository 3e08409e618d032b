import { Module } from '@nestjs/common';
import { MonthlyQuotaService } from './monthly-quota.service.js';

/** The monthly quota alone (PostgreSQL only), for modules and tools that need no Redis. */
@Module({
  providers: [MonthlyQuotaService],
  exports: [MonthlyQuotaService],
})
export class QuotaModule {}
