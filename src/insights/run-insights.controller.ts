import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ParseIdPipe } from '../common/ids.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
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

  @Get(':id/failures')
  @RequireScopes('results:read')
  @ApiPageResponse(
    FailureGroupResponse,
    'The run’s failed and blocked current results grouped by signature, largest group first',
  )
  @ApiErrors(400, 404)
  listFailures(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('test_run')) id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<FailureGroupResponse>> {
    return this.failures.list(principal.organization.id, id, query);
  }

  @Get(':id/comparison')
  @RequireScopes('results:read')
  @ApiOkResponse({ type: ComparisonResponse })
  @ApiErrors(400, 404)
  compare(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('test_run')) id: string,
    @Query() query: ComparisonQuery,
  ): Promise<ComparisonResponse> {
    return this.comparison.compare(principal.organization.id, id, query);
  }

  @Get(':id/gate')
  @RequireScopes('testruns:read')
  @ApiOkResponse({ type: GateResponse })
  @ApiErrors(404)
  evaluateGate(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('test_run')) id: string,
  ): Promise<GateResponse> {
    return this.gate.gate(principal.organization.id, id);
  }
}
