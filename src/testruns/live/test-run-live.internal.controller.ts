import { Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { InternalController } from '../../routes/route.decorators.js';
import { SessionsService } from '../../auth/sessions/sessions.service.js';
import { sendEvents } from '../../common/http/server-sent-events.js';
import { PathId } from '../../common/ids.js';
import { ErrorEnvelopeDto } from '../../common/errors/error-envelope.dto.js';
import { ApiErrors } from '../../common/openapi.decorators.js';
import { Settings } from '../../config/settings.js';
import type { TestRunResponse } from '../dto/test-run.dto.js';
import { RunLiveService } from './run-live.service.js';

const ENDS =
  'until the client leaves, or its console session is signed out or expires (checked every `LIVE_HEARTBEAT_MS`, with the keep-alive comment)';

const TOO_MANY_STREAMS = {
  status: 429,
  description:
    'This console session (or the operator token) holds its share of the process’s live streams (`rate_limit_exceeded`, `window: "live_streams"`): close one, or retry after `Retry-After` seconds',
  type: ErrorEnvelopeDto,
};

@InternalController()
export class TestRunLiveInternalController {
  constructor(
    private readonly live: RunLiveService,
    private readonly sessions: SessionsService,
    private readonly settings: Settings,
  ) {}

  @Get('testruns/:id/live')
  @ApiOkResponse({
    description: `Server-sent events: a \`run\` event with the test run (as \`GET /api/v1/testruns/{id}\` answers it) at once, then after every result batch and status change, ${ENDS}`,
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, 503)
  @ApiResponse(TOO_MANY_STREAMS)
  watch(
    @PathId('test_run') id: string,
    @Req() req: Request,
    @Res() response: Response,
  ): Promise<void> {
    return this.stream(req, response, (holder) => this.live.watch(holder, id));
  }

  @Get('projects/:id/testruns/live')
  @ApiOkResponse({
    description: `Server-sent events: a \`run\` event with a test run of the project (as \`GET /api/v1/testruns/{id}\` answers it) after every result batch and status change of any of its runs, new runs included, ${ENDS}; nothing at first (read the list once the stream is open)`,
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrors(404, 503)
  @ApiResponse(TOO_MANY_STREAMS)
  watchProject(
    @PathId('project') id: string,
    @Req() req: Request,
    @Res() response: Response,
  ): Promise<void> {
    return this.stream(req, response, (holder) => this.live.watchProject(holder, id));
  }

  /** Streams what `watch` opens for the request's holder (its session, or the operator token). */
  private async stream(
    req: Request,
    response: Response,
    watch: (holder: string) => Promise<Observable<TestRunResponse>>,
  ): Promise<void> {
    const holder = await this.sessions.streamHolder(req);
    const events = await watch(holder.key);
    sendEvents(response, 'run', events, { heartbeatMs: this.settings.liveHeartbeatMs, holder });
  }
}
