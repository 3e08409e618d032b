import { Query } from '@nestjs/common';
import { InternalController, ListRoute } from '../auth/route.decorators.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { ResultQuery, ResultResponse } from './dto/result.dto.js';
import { ResultsService } from './results.service.js';

@InternalController()
export class ResultsInternalController {
  constructor(
    private readonly runs: TestRunLookup,
    private readonly results: ResultsService,
  ) {}

  @ListRoute(
    'testruns/:id/results',
    ResultResponse,
    'Results of the run, newest first (each case’s current one unless include_history)',
    { errors: [400, 404] },
  )
  async list(
    @PathId('test_run') id: string,
    @Query() query: ResultQuery,
  ): Promise<Page<ResultResponse>> {
    const run = await this.runs.findAnywhere(id);
    return this.results.list(run.organizationId, id, query);
  }
}
