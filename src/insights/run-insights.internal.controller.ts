import { Query } from '@nestjs/common';
import { RouteCaller } from '../routes/access.decorators.js';
import { InternalController, ListRoute, ReadRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { type Page, PaginationQuery } from '../common/pagination/pagination.js';
import { ComparisonQuery, ComparisonResponse } from './dto/comparison.dto.js';
import { InternalFailureGroupResponse } from './dto/failure-group.dto.js';
import { GateResponse } from './dto/gate.dto.js';
import { QualityGateService } from './quality-gate.service.js';
import { RunComparisonService } from './run-comparison.service.js';
import { RunFailuresService } from './run-failures.service.js';

/** A run's failures, comparison and gate for the console, as the public routes answer them. */
@InternalController()
export class RunInsightsInternalController {
  constructor(
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
  listFailures(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<InternalFailureGroupResponse>> {
    return this.failures.listWithCases(caller, id, query);
  }

  @ReadRoute('testruns/:id/comparison', ComparisonResponse, { errors: [400, 404] })
  compare(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Query() query: ComparisonQuery,
  ): Promise<ComparisonResponse> {
    return this.comparison.compare(caller, id, query);
  }

  @ReadRoute('testruns/:id/gate', GateResponse, { errors: [404] })
  evaluateGate(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
  ): Promise<GateResponse> {
    return this.gate.gate(caller, id);
  }
}
