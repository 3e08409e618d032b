import { Body, Query } from '@nestjs/common';
import { RouteCaller } from '../routes/access.decorators.js';
import {
  CreateRoute,
  InternalController,
  ListRoute,
  ReadRoute,
  UpdateRoute,
} from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import {
  CreateReleaseDto,
  ReleaseOverviewResponse,
  ReleaseResponse,
  UpdateReleaseDto,
} from '../releases/dto/release.dto.js';
import { ReleasesService } from '../releases/releases.service.js';
import { ReleaseOverviews } from './release-overviews.service.js';

@InternalController()
export class ReleasesInternalController {
  constructor(
    private readonly releases: ReleasesService,
    private readonly overviews: ReleaseOverviews,
  ) {}

  @CreateRoute('projects/:id/releases', ReleaseResponse, { errors: [400, 404, 409, 415, 422] })
  create(
    @PathId('project') projectId: string,
    @Body() dto: CreateReleaseDto,
  ): Promise<ReleaseResponse> {
    return this.releases.create(projectId, dto);
  }

  @ListRoute(
    'projects/:id/releases',
    ReleaseOverviewResponse,
    'Releases of the project, newest first, each with its progress',
    { errors: [400, 404] },
  )
  list(
    @PathId('project') projectId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<ReleaseOverviewResponse>> {
    return this.overviews.page(projectId, query);
  }

  @ReadRoute('releases/:id', ReleaseOverviewResponse, { errors: [404] })
  get(
    @RouteCaller() caller: Caller,
    @PathId('release') id: string,
  ): Promise<ReleaseOverviewResponse> {
    return this.overviews.get(caller, id);
  }

  @UpdateRoute('releases/:id', ReleaseResponse, { errors: [400, 404, 409, 415] })
  update(
    @RouteCaller() caller: Caller,
    @PathId('release') id: string,
    @Body() dto: UpdateReleaseDto,
  ): Promise<ReleaseResponse> {
    return this.releases.update(caller, id, dto);
  }
}
