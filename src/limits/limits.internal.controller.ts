import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { InternalApi } from '../routes/access.decorators.js';
import { RATE_LIMIT_STORES, type RateLimitStore, Settings } from '../config/settings.js';

export class LimitsResponse {
  @ApiProperty({ description: 'Calls each organization may make per minute', example: 600 })
  per_minute!: number;

  @ApiProperty({
    enum: RATE_LIMIT_STORES,
    description: 'Where the per-minute counts live: per process, or shared by all replicas',
  })
  per_minute_store!: RateLimitStore;
}

/** The limits every organization shares, which the console shows beside each one's own. */
@ApiTags('internal')
@InternalApi()
@Controller('internal/v1/limits')
export class LimitsInternalController {
  constructor(private readonly settings: Settings) {}

  @Get()
  @ApiOkResponse({ type: LimitsResponse })
  get(): LimitsResponse {
    return {
      per_minute: this.settings.rateLimitPerMinute,
      per_minute_store: this.settings.rateLimitStore,
    };
  }
}
