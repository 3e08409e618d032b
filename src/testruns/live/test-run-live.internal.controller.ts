import { Get, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { InternalController } from '../../auth/route.decorators.js';
import { sendEvents } from '../../common/http/server-sent-events.js';
import { PathId } from '../../common/ids.js';
import { ApiErrors } from '../../common/openapi.decorators.js';
import { RunLiveService } from './run-live.service.js';

@InternalController()
export class TestRunLiveInternalController {
  constructor(private readonly live: RunLiveService) {}

  @Get('testruns/:id/live')
  @ApiOkResponse({
    description:
      'Server-sent events: a `run` event with the test run (as `GET /api/v1/testruns/{id}` answers it) at once, then after every result batch and status change, until the client leaves',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, 503)
  async watch(@PathId('test_run') id: string, @Res() response: Response): Promise<void> {
    sendEvents(response, 'run', await this.live.watch(id));
  }

  @Get('projects/:id/testruns/live')
  @ApiOkResponse({
    description:
      'Server-sent events: a `run` event with a test run of the project (as `GET /api/v1/testruns/{id}` answers it) after every result batch and status change of any of its runs, new runs included, until the client leaves; nothing at first (read the list once the stream is open)',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, 503)
  async watchProject(@PathId('project') id: string, @Res() response: Response): Promise<void> {
    sendEvents(response, 'run', await this.live.watchProject(id));
  }
}
