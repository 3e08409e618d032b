import { Controller, Get, Header, HttpCode } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../routes/access.decorators.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { HealthService } from './health.service.js';
import { MetricsService } from './metrics.service.js';

/** Cluster-internal probes, outside `/api/v1` and allowed over plain HTTP. */
@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly metrics: MetricsService,
  ) {}

  @Get('healthz')
  alive(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(): Promise<{ status: 'ok'; checks: Record<string, string> }> {
    const checks = await this.health.dependencies();
    const down = Object.entries(checks)
      .filter(([, state]) => state !== 'ok')
      .map(([name]) => name);
    if (down.length > 0) {
      throw new ApiError(
        503,
        ErrorCode.ServiceUnavailable,
        `Not ready: ${down.join(' and ')} unreachable.`,
      );
    }
    return { status: 'ok', checks };
  }

  @Get('metrics')
  @HttpCode(200)
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
