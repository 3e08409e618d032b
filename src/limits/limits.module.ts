import { Module } from '@nestjs/common';
import { MinuteLimiter } from './minute-limiter.js';
import { QuotaModule } from './quota.module.js';

@Module({
  imports: [QuotaModule],
  providers: [MinuteLimiter],
  exports: [MinuteLimiter, QuotaModule],
})
export class LimitsModule {}
