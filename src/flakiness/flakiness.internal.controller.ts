import { Body, Get, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { RouteCaller } from '../routes/access.decorators.js';
import {
  DeleteRoute,
  InternalController,
  ListRoute,
  ReadRoute,
} from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { sendCsv } from '../common/http/csv-download.js';
import { PathId } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { type Page, PaginationQuery } from '../common/pagination/pagination.js';
import { FlakyTestResponse, FlakyTestsFilterQuery, FlakyTestsQuery } from './dto/flaky-test.dto.js';
import { FlakyTestsExportService } from './flaky-tests-export.service.js';
import { InternalTestCaseResponse } from './dto/internal-test-case.dto.js';
import {
  InternalQuarantineEntryResponse,
  QuarantineDto,
  QuarantineEntryResponse,
} from './dto/quarantine.dto.js';
import { FlakyTestsService } from './flaky-tests.service.js';
import { QuarantineService } from './quarantine.service.js';

/** The console's flaky tests and quarantine: the services the public API calls (CONTRACT §12). */
@InternalController()
export class FlakinessInternalController {
  constructor(
    private readonly flakyTests: FlakyTestsService,
    private readonly quarantine: QuarantineService,
    private readonly flakyTestsExport: FlakyTestsExportService,
  ) {}

  @ReadRoute('testcases/:id', InternalTestCaseResponse, { errors: [404] })
  testCase(
    @RouteCaller() caller: Caller,
    @PathId('test_case') id: string,
  ): Promise<InternalTestCaseResponse> {
    return this.quarantine.testCase(caller, id);
  }

  @ListRoute(
    'projects/:id/flaky-tests',
    FlakyTestResponse,
    'Flaky test cases, highest flip rate first',
    { errors: [400, 404] },
  )
  listFlakyTests(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Query() query: FlakyTestsQuery,
  ): Promise<Page<FlakyTestResponse>> {
    return this.flakyTests.list(caller, id, query);
  }

  /** The flaky tests page's "Export CSV": the whole list, in its order (issue 31). */
  @Get('projects/:id/flaky-tests/export')
  @ApiOkResponse({
    description:
      'Every flaky test the list shows with the same window and filters, highest flip rate first, as CSV (RFC 4180, UTF-8 with a byte-order mark, a header line; text cells starting with =, +, -, @ prefixed with an apostrophe), streamed a page at a time',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrors(400, 404)
  async exportFlakyTests(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Query() query: FlakyTestsFilterQuery,
    @Res() response: Response,
  ): Promise<void> {
    await sendCsv(response, await this.flakyTestsExport.export(caller, id, query));
  }

  @ListRoute(
    'projects/:id/quarantine',
    InternalQuarantineEntryResponse,
    'Test cases in quarantine, newest first, flaky or not, each with its title',
    { errors: [400, 404] },
  )
  listQuarantine(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<InternalQuarantineEntryResponse>> {
    return this.quarantine.listWithCases(caller, id, query);
  }

  @Put('projects/:id/quarantine/:testCaseId')
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

  @DeleteRoute('projects/:id/quarantine/:testCaseId', 'Taken out of quarantine', {
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
