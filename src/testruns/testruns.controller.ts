import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ParseIdPipe } from '../common/ids.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import type { Page } from '../common/pagination/pagination.js';
import {
  CreateTestRunDto,
  TestRunQuery,
  TestRunResponse,
  UpdateTestRunDto,
} from './dto/test-run.dto.js';
import { TestRunsService } from './testruns.service.js';

@ApiTags('test runs')
@Controller('testruns')
export class TestRunsController {
  constructor(private readonly testRuns: TestRunsService) {}

  @Post()
  @RequireScopes('testruns:create')
  @ApiCreatedResponse({ type: TestRunResponse })
  @ApiErrors(400, 409, 415, 422)
  create(
    @Principal() principal: ApiPrincipal,
    @Body() dto: CreateTestRunDto,
  ): Promise<TestRunResponse> {
    return this.testRuns.create(principal.organization.id, dto);
  }

  @Get()
  @RequireScopes('testruns:read')
  @ApiPageResponse(TestRunResponse, 'Test runs, newest first')
  @ApiErrors(400)
  list(
    @Principal() principal: ApiPrincipal,
    @Query() query: TestRunQuery,
  ): Promise<Page<TestRunResponse>> {
    return this.testRuns.list(principal.organization.id, query);
  }

  @Get(':id')
  @RequireScopes('testruns:read')
  @ApiOkResponse({ type: TestRunResponse })
  @ApiErrors(404)
  get(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('test_run')) id: string,
  ): Promise<TestRunResponse> {
    return this.testRuns.get(principal.organization.id, id);
  }

  @Patch(':id')
  @RequireScopes('testruns:update')
  @ApiOkResponse({ type: TestRunResponse })
  @ApiErrors(400, 404, 409, 415)
  update(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('test_run')) id: string,
    @Body() dto: UpdateTestRunDto,
  ): Promise<TestRunResponse> {
    return this.testRuns.update(principal.organization.id, id, dto);
  }
}
