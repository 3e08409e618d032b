import { Module } from '@nestjs/common';
import { MinuteLimiter } from './minute-limiter.js';
import { MonthlyQuotaService } from './monthly-quota.service.js';

@Module({
  providers: [MonthlyQuotaService, MinuteLimiter],
  exports: [MonthlyQuotaService, MinuteLimiter],
})
export class LimitsModule {}
