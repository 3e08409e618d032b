import { Query } from '@nestjs/common';
import { InternalController, ListRoute } from '../routes/route.decorators.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import { FailureSearchQuery, FoundFailureResponse } from './dto/failure-search.dto.js';
import { FailureSearchService } from './failure-search.service.js';

/** The console's search of a project's recent results by error text (issue 31). */
@InternalController()
export class FailureSearchInternalController {
  constructor(private readonly failures: FailureSearchService) {}

  @ListRoute(
    'projects/:id/failures/search',
    FoundFailureResponse,
    'Current results of the project’s latest runs (`runs`) that did not pass and whose message or failure type contains `q`, case and accents aside; newest run first',
    { errors: [400, 404] },
  )
  search(
    @PathId('project') projectId: string,
    @Query() query: FailureSearchQuery,
  ): Promise<Page<FoundFailureResponse>> {
    return this.failures.search(projectId, query);
  }
}
