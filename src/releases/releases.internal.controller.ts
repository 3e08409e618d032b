import { Body, Query } from '@nestjs/common';
import {
  CreateRoute,
  InternalController,
  ListRoute,
  UpdateRoute,
} from '../auth/route.decorators.js';
import { PathId } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { CreateReleaseDto, ReleaseResponse, UpdateReleaseDto } from './dto/release.dto.js';
import { ReleasesService } from './releases.service.js';

@InternalController()
export class ReleasesInternalController {
  constructor(private readonly releases: ReleasesService) {}

  @CreateRoute('projects/:id/releases', ReleaseResponse, { errors: [400, 404, 409, 415, 422] })
  create(
    @PathId('project') projectId: string,
    @Body() dto: CreateReleaseDto,
  ): Promise<ReleaseResponse> {
    return this.releases.create(projectId, dto);
  }

  @ListRoute('projects/:id/releases', ReleaseResponse, 'Releases of the project, newest first', {
    errors: [400, 404],
  })
  list(
    @PathId('project') projectId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<ReleaseResponse>> {
    return this.releases.list(projectId, query);
  }

  @UpdateRoute('releases/:id', ReleaseResponse, { errors: [400, 404, 409, 415] })
  update(@PathId('release') id: string, @Body() dto: UpdateReleaseDto): Promise<ReleaseResponse> {
    return this.releases.update(id, dto);
  }
}
