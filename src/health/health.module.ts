import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthService } from './health.service.js';
import { MetricsService } from './metrics.service.js';

@Module({
  controllers: [HealthController],
  providers: [HealthService, MetricsService],
  exports: [MetricsService],
})
export class HealthModule {}
