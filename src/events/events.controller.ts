import { Controller, Get } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { AnyApiKey } from '../auth/access.decorators.js';
import { ApiPageResponse } from '../common/openapi.decorators.js';
import type { Page } from '../common/pagination/pagination.js';
import { EVENT_TYPES } from './event-types.js';

export class EventTypeResponse {
  @ApiProperty({ example: 'build.created.v1' })
  type!: string;

  @ApiProperty({ example: 'A build was created, from the user interface or the API.' })
  description!: string;

  @ApiProperty({ description: 'The resource in the event’s `data`', example: 'build' })
  resource!: string;
}

@ApiTags('events')
@Controller('events')
export class EventsController {
  @Get()
  @AnyApiKey()
  @ApiPageResponse(EventTypeResponse, 'The webhook event types')
  list(): Page<EventTypeResponse> {
    const data = EVENT_TYPES.map(({ type, description, resource }) => ({
      type,
      description,
      resource,
    }));
    return {
      data,
      pagination: { total: data.length, limit: data.length, offset: 0, has_more: false },
    };
  }
}
