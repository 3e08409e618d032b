import { Controller, Query } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { AnyApiKey } from '../routes/access.decorators.js';
import { ListRoute } from '../routes/route.decorators.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
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
  @ListRoute('', EventTypeResponse, 'The webhook event types', { errors: [400] })
  @AnyApiKey()
  list(@Query() query: PaginationQuery): Page<EventTypeResponse> {
    // The catalogue is a constant list, in its documented order; paged like every collection.
    const data = EVENT_TYPES.slice(query.offset, query.offset + query.limit).map(
      ({ type, description, resource }) => ({ type, description, resource }),
    );
    return toPage(data, EVENT_TYPES.length, query);
  }
}
