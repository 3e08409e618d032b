import { Query } from '@nestjs/common';
import { InternalController, ListRoute } from '../auth/route.decorators.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import { TestCaseLookup } from '../projects/project-lookup.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { InternalResultResponse, ResultQuery } from './dto/result.dto.js';
import { ResultsService } from './results.service.js';

@InternalController()
export class ResultsInternalController {
  constructor(
    private readonly runs: TestRunLookup,
    private readonly results: ResultsService,
    private readonly testCases: TestCaseLookup,
  ) {}

  @ListRoute(
    'testruns/:id/results',
    InternalResultResponse,
    'Results of the run, newest first (each case’s current one unless include_history), each with its test case’s title and automation id',
    { errors: [400, 404] },
  )
  async list(
    @PathId('test_run') id: string,
    @Query() query: ResultQuery,
  ): Promise<Page<InternalResultResponse>> {
    const run = await this.runs.findAnywhere(id);
    const page = await this.results.list(run.organizationId, id, query);
    const names = await this.testCases.names(
      run.projectId,
      page.data.map((result) => result.test_case_id),
    );
    return {
      ...page,
      data: page.data.map((result) => {
        const name = names.get(result.test_case_id);
        return {
          ...result,
          test_case_title: name?.title ?? '',
          automation_id: name?.automationId ?? null,
        };
      }),
    };
  }
}
