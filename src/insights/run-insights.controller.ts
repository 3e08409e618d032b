import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RouteCaller } from '../routes/access.decorators.js';
import { ListRoute, ReadRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { type Page, PaginationQuery } from '../common/pagination/pagination.js';
import { ComparisonQuery, ComparisonResponse } from './dto/comparison.dto.js';
import { FailureGroupResponse } from './dto/failure-group.dto.js';
import { GateResponse } from './dto/gate.dto.js';
import { QualityGateService } from './quality-gate.service.js';
import { RunComparisonService } from './run-comparison.service.js';
import { RunFailuresService } from './run-failures.service.js';

@ApiTags('test runs')
@Controller('testruns')
export class RunInsightsController {
  constructor(
    private readonly failures: RunFailuresService,
    private readonly comparison: RunComparisonService,
    private readonly gate: QualityGateService,
  ) {}

  @ListRoute(
    ':id/failures',
    FailureGroupResponse,
    'The run’s failed and blocked current results grouped by signature, largest group first',
    { scopes: ['results:read'], errors: [400, 404] },
  )
  listFailures(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<FailureGroupResponse>> {
    return this.failures.list(caller, id, query);
  }

  @ReadRoute(':id/comparison', ComparisonResponse, { scopes: ['results:read'], errors: [400, 404] })
  compare(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Query() query: ComparisonQuery,
  ): Promise<ComparisonResponse> {
    return this.comparison.compare(caller, id, query);
  }

  @ReadRoute(':id/gate', GateResponse, { scopes: ['testruns:read'], errors: [404] })
  evaluateGate(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
  ): Promise<GateResponse> {
    return this.gate.gate(caller, id);
  }
}
