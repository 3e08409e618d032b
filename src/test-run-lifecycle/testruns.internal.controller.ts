import { Body, Query } from '@nestjs/common';
import {
  CreateRoute,
  InternalController,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../routes/route.decorators.js';
import { RouteCaller } from '../routes/access.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import {
  ProjectTestRunQuery,
  TestRunFields,
  TestRunResponse,
  UpdateTestRunDto,
} from '../testruns/dto/test-run.dto.js';
import { ProjectRunListQuery, TestRunListItemResponse } from '../testruns/dto/test-run-list.dto.js';
import { RunListService } from '../testruns/run-list.service.js';
import { TestRunsService } from '../testruns/testruns.service.js';
import { CreateTestRun } from './create-test-run.usecase.js';
import { TransitionTestRun } from './transition-test-run.usecase.js';

@InternalController()
export class TestRunsInternalController {
  constructor(
    private readonly testRuns: TestRunsService,
    private readonly runList: RunListService,
    private readonly createTestRun: CreateTestRun,
    private readonly transitionTestRun: TransitionTestRun,
  ) {}

  @CreateRoute('projects/:id/testruns', TestRunResponse, { errors: [400, 404, 409, 415, 422] })
  create(
    @RouteCaller() caller: Caller,
    @PathId('project') projectId: string,
    @Body() dto: TestRunFields,
  ): Promise<TestRunResponse> {
    return this.createTestRun.execute({
      caller,
      source: 'ui',
      run: { ...dto, project_id: projectId },
    });
  }

  @ReadRoute('testruns/:id', TestRunResponse, { errors: [404] })
  get(@RouteCaller() caller: Caller, @PathId('test_run') id: string): Promise<TestRunResponse> {
    return this.testRuns.get(caller, id);
  }

  @ListRoute(
    'projects/:id/testruns',
    TestRunListItemResponse,
    'The project’s test runs, newest first, each with its build, duration, pass rate and configurations',
    { errors: [400, 404] },
  )
  list(
    @PathId('project') projectId: string,
    @Query() query: ProjectRunListQuery,
  ): Promise<Page<TestRunListItemResponse>> {
    return this.runList.list(projectId, query);
  }

  @ListRoute('releases/:id/testruns', TestRunResponse, 'The release’s test runs, newest first', {
    errors: [400, 404],
  })
  listInRelease(
    @PathId('release') releaseId: string,
    @Query() query: ProjectTestRunQuery,
  ): Promise<Page<TestRunResponse>> {
    return this.testRuns.listInRelease(releaseId, query);
  }

  /** As `PATCH /api/v1/testruns/{id}` (the same moves, 409 for any other), by the operator. */
  @UpdateRoute('testruns/:id', TestRunResponse, { errors: [400, 404, 409, 415] })
  update(
    @RouteCaller() caller: Caller,
    @PathId('test_run') id: string,
    @Body() dto: UpdateTestRunDto,
  ): Promise<TestRunResponse> {
    return this.transitionTestRun.execute({ caller, testRunId: id, status: dto.status });
  }
}
