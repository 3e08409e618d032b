import { Query } from '@nestjs/common';
import { InternalController, ListRoute, ReadRoute } from '../auth/route.decorators.js';
import { PathId } from '../common/ids.js';
import { type Page, PaginationQuery } from '../common/pagination/pagination.js';
import { TestCaseLookup } from '../projects/project-lookup.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { ComparisonQuery, ComparisonResponse } from './dto/comparison.dto.js';
import { InternalFailureGroupResponse } from './dto/failure-group.dto.js';
import { GateResponse } from './dto/gate.dto.js';
import { QualityGateService } from './quality-gate.service.js';
import { RunComparisonService } from './run-comparison.service.js';
import { RunFailuresService } from './run-failures.service.js';

/**
 * A run's failures, comparison and gate for the console: each route finds the run's
 * organization (404 if the run is unknown), then asks the service the public routes ask.
 */
@InternalController()
export class RunInsightsInternalController {
  constructor(
    private readonly runs: TestRunLookup,
    private readonly testCases: TestCaseLookup,
    private readonly failures: RunFailuresService,
    private readonly comparison: RunComparisonService,
    private readonly gate: QualityGateService,
  ) {}

  @ListRoute(
    'testruns/:id/failures',
    InternalFailureGroupResponse,
    'The run’s failed and blocked current results grouped by signature, largest group first, with the title and automation id of each group’s cases',
    { errors: [400, 404] },
  )
  async listFailures(
    @PathId('test_run') id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<InternalFailureGroupResponse>> {
    const run = await this.runs.findAnywhere(id);
    const page = await this.failures.list(run.organizationId, id, query);
    const names = await this.testCases.names(
      run.projectId,
      page.data.flatMap((group) => group.test_case_ids),
    );
    return {
      ...page,
      data: page.data.map((group) => ({
        ...group,
        test_cases: group.test_case_ids.map((caseId) => ({
          id: caseId,
          title: names.get(caseId)?.title ?? '',
          automation_id: names.get(caseId)?.automationId ?? null,
        })),
      })),
    };
  }

  @ReadRoute('testruns/:id/comparison', ComparisonResponse, { errors: [400, 404] })
  async compare(
    @PathId('test_run') id: string,
    @Query() query: ComparisonQuery,
  ): Promise<ComparisonResponse> {
    const run = await this.runs.findAnywhere(id);
    return this.comparison.compare(run.organizationId, id, query);
  }

  @ReadRoute('testruns/:id/gate', GateResponse, { errors: [404] })
  async evaluateGate(@PathId('test_run') id: string): Promise<GateResponse> {
    const run = await this.runs.findAnywhere(id);
    return this.gate.gate(run.organizationId, id);
  }
}
