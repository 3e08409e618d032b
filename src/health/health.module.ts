import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthRepository } from './health.repository.js';
import { HealthService } from './health.service.js';
import { MetricsService } from './metrics.service.js';

@Module({
  controllers: [HealthController],
  providers: [HealthRepository, HealthService, MetricsService],
  exports: [MetricsService],
})
export class HealthModule {}
