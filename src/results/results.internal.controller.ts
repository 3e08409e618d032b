import { Query } from '@nestjs/common';
import { InternalController, ListRoute } from '../auth/route.decorators.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import { InternalResultResponse, ResultQuery } from './dto/result.dto.js';
import { ResultsService } from './results.service.js';

@InternalController()
export class ResultsInternalController {
  constructor(private readonly results: ResultsService) {}

  @ListRoute(
    'testruns/:id/results',
    InternalResultResponse,
    'Results of the run, newest first (each case’s current one unless include_history), each with its test case’s title and automation id',
    { errors: [400, 404] },
  )
  list(
    @PathId('test_run') id: string,
    @Query() query: ResultQuery,
  ): Promise<Page<InternalResultResponse>> {
    return this.results.listAnywhere(id, query);
  }
}
