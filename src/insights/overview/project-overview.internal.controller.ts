import { Query } from '@nestjs/common';
import { RouteCaller } from '../../routes/access.decorators.js';
import { InternalController, ReadRoute } from '../../routes/route.decorators.js';
import type { Caller } from '../../common/caller.js';
import { PathId } from '../../common/ids.js';
import {
  OverviewTrendQuery,
  OverviewTrendResponse,
  ProjectOverviewResponse,
  RecurringFailuresQuery,
  RecurringFailuresResponse,
} from './dto/project-overview.dto.js';
import { ProjectOverviewService } from './project-overview.service.js';

/** The console's project overview, its first page of a project (issue 31). */
@InternalController()
export class ProjectOverviewInternalController {
  constructor(private readonly overview: ProjectOverviewService) {}

  @ReadRoute('projects/:id/overview', ProjectOverviewResponse, { errors: [404] })
  latest(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
  ): Promise<ProjectOverviewResponse> {
    return this.overview.overview(caller, id);
  }

  @ReadRoute('projects/:id/overview/trend', OverviewTrendResponse, { errors: [400, 404] })
  trend(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Query() query: OverviewTrendQuery,
  ): Promise<OverviewTrendResponse> {
    return this.overview.trend(caller, id, query);
  }

  @ReadRoute('projects/:id/overview/recurring-failures', RecurringFailuresResponse, {
    errors: [400, 404],
  })
  recurringFailures(
    @RouteCaller() caller: Caller,
    @PathId('project') id: string,
    @Query() query: RecurringFailuresQuery,
  ): Promise<RecurringFailuresResponse> {
    return this.overview.recurringFailures(caller, id, query);
  }
}
