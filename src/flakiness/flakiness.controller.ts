import { Body, Controller, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes, RouteCaller } from '../routes/access.decorators.js';
import { DeleteRoute, ListRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { type Page, PaginationQuery } from '../common/pagination/pagination.js';
import { FlakyTestResponse, FlakyTestsQuery } from './dto/flaky-test.dto.js';
import { QuarantineDto, QuarantineEntryResponse } from './dto/quarantine.dto.js';
import { FlakyTestsService } from './flaky-tests.service.js';
import { QuarantineService } from './quarantine.service.js';

@ApiTags('flakiness')
@Controller('projects/:id')
export class FlakinessController {
  constructor(
    private readonly flakyTests: FlakyTestsService,
    private readonly quarantine: QuarantineService,
  ) {}

  @ListRoute('flaky-tests', FlakyTestResponse, 'Flaky test cases, highest flip rate first', {
    scopes: ['results:read'],
    errors: [400, 404],
  })
  listFlakyTests(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Query() query: FlakyTestsQuery,
  ): Promise<Page<FlakyTestResponse>> {
    return this.flakyTests.list(caller, id, query);
  }

  @ListRoute('quarantine', QuarantineEntryResponse, 'Test cases in quarantine, newest first', {
    scopes: ['results:read'],
    errors: [400, 404],
  })
  listQuarantine(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<QuarantineEntryResponse>> {
    return this.quarantine.list(caller, id, query);
  }

  @Put('quarantine/:testCaseId')
  @RequireScopes('quarantine:manage')
  @ApiOkResponse({ type: QuarantineEntryResponse, description: 'The case’s quarantine entry' })
  @ApiErrors(400, 404, 415)
  putInQuarantine(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @PathId('test_case', 'testCaseId') testCaseId: string,
    @Body() dto: QuarantineDto,
  ): Promise<QuarantineEntryResponse> {
    return this.quarantine.quarantine(caller, id, testCaseId, dto);
  }

  @DeleteRoute('quarantine/:testCaseId', 'Taken out of quarantine', {
    scopes: ['quarantine:manage'],
    errors: [404],
  })
  takeOutOfQuarantine(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @PathId('test_case', 'testCaseId') testCaseId: string,
  ): Promise<void> {
    return this.quarantine.unquarantine(caller, id, testCaseId);
  }
}
