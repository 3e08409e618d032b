import { Body, Put, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { DeleteRoute, InternalController, ListRoute, ReadRoute } from '../auth/route.decorators.js';
import { PathId } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { type Page, PaginationQuery } from '../common/pagination/pagination.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import { FlakyTestResponse, FlakyTestsQuery } from './dto/flaky-test.dto.js';
import { InternalTestCaseResponse } from './dto/internal-test-case.dto.js';
import { QuarantineDto, QuarantineEntryResponse } from './dto/quarantine.dto.js';
import { FlakyTestsService } from './flaky-tests.service.js';
import { QuarantineService } from './quarantine.service.js';

/**
 * The console's flaky tests and quarantine: each route finds the project's organization, then
 * calls the service the public API calls (CONTRACT §12), so the rules live there once.
 */
@InternalController()
export class FlakinessInternalController {
  constructor(
    private readonly projects: ProjectLookup,
    private readonly flakyTests: FlakyTestsService,
    private readonly quarantine: QuarantineService,
  ) {}

  @ReadRoute('testcases/:id', InternalTestCaseResponse, { errors: [404] })
  testCase(@PathId('test_case') id: string): Promise<InternalTestCaseResponse> {
    return this.quarantine.caseAnywhere(id);
  }

  @ListRoute(
    'projects/:id/flaky-tests',
    FlakyTestResponse,
    'Flaky test cases, highest flip rate first',
    { errors: [400, 404] },
  )
  async listFlakyTests(
    @PathId('project') id: string,
    @Query() query: FlakyTestsQuery,
  ): Promise<Page<FlakyTestResponse>> {
    return this.flakyTests.list(await this.projects.organizationOf(id), id, query);
  }

  @ListRoute(
    'projects/:id/quarantine',
    QuarantineEntryResponse,
    'Test cases in quarantine, newest first',
    {
      errors: [400, 404],
    },
  )
  async listQuarantine(
    @PathId('project') id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<QuarantineEntryResponse>> {
    return this.quarantine.list(await this.projects.organizationOf(id), id, query);
  }

  @Put('projects/:id/quarantine/:testCaseId')
  @ApiOkResponse({ type: QuarantineEntryResponse, description: 'The case’s quarantine entry' })
  @ApiErrors(400, 404, 415)
  async putInQuarantine(
    @PathId('project') id: string,
    @PathId('test_case', 'testCaseId') testCaseId: string,
    @Body() dto: QuarantineDto,
  ): Promise<QuarantineEntryResponse> {
    return this.quarantine.quarantine(await this.projects.organizationOf(id), id, testCaseId, dto);
  }

  @DeleteRoute('projects/:id/quarantine/:testCaseId', 'Taken out of quarantine', {
    errors: [404],
  })
  async takeOutOfQuarantine(
    @PathId('project') id: string,
    @PathId('test_case', 'testCaseId') testCaseId: string,
  ): Promise<void> {
    await this.quarantine.unquarantine(await this.projects.organizationOf(id), id, testCaseId);
  }
}
