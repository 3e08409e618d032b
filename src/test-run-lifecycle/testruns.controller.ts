import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CallerOrganizationId, RouteCaller } from '../routes/access.decorators.js';
import { CreateRoute, ListRoute, ReadRoute, UpdateRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import {
  CreateTestRunDto,
  TestRunQuery,
  TestRunResponse,
  UpdateTestRunDto,
} from '../testruns/dto/test-run.dto.js';
import { TestRunsService } from '../testruns/testruns.service.js';
import { CreateTestRun } from './create-test-run.usecase.js';
import { TransitionTestRun } from './transition-test-run.usecase.js';

@ApiTags('test runs')
@Controller('testruns')
export class TestRunsController {
  constructor(
    private readonly testRuns: TestRunsService,
    private readonly createTestRun: CreateTestRun,
    private readonly transitionTestRun: TransitionTestRun,
  ) {}

  @CreateRoute('', TestRunResponse, { scopes: ['testruns:create'], errors: [400, 409, 415, 422] })
  create(@RouteCaller() caller: Caller, @Body() dto: CreateTestRunDto): Promise<TestRunResponse> {
    return this.createTestRun.execute({ caller, source: 'api', run: dto });
  }

  @ListRoute('', TestRunResponse, 'Test runs, newest first', {
    scopes: ['testruns:read'],
    errors: [400],
  })
  list(
    @CallerOrganizationId() organizationId: string,
    @Query() query: TestRunQuery,
  ): Promise<Page<TestRunResponse>> {
    return this.testRuns.list(organizationId, query);
  }

  @ReadRoute(':id', TestRunResponse, { scopes: ['testruns:read'], errors: [404] })
  get(@RouteCaller() caller: Caller, @PathId('test_run') id: string): Promise<TestRunResponse> {
    return this.testRuns.get(caller, id);
  }

  @UpdateRoute(':id', TestRunResponse, {
    scopes: ['testruns:update'],
    errors: [400, 404, 409, 415],
  })
  update(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Body() dto: UpdateTestRunDto,
  ): Promise<TestRunResponse> {
    return this.transitionTestRun.execute({ caller, testRunId: id, status: dto.status });
  }
}
