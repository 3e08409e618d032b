import { Body, Controller, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { CallerOrganizationId, RequireScopes } from '../routes/access.decorators.js';
import { ListRoute, ReadRoute, UpdateRoute } from '../routes/route.decorators.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { PathId } from '../common/ids.js';
import type { Page } from '../common/pagination/pagination.js';
import { BuildsService, type CreatedBuild } from './builds.service.js';
import {
  BuildQuery,
  BuildResponse,
  CreateBuildDto,
  QueuedBuildResponse,
  UpdateBuildDto,
} from './dto/build.dto.js';

@ApiTags('builds')
@Controller('builds')
export class BuildsController {
  constructor(private readonly builds: BuildsService) {}

  @Post()
  @RequireScopes('builds:create')
  @ApiAcceptedResponse({
    type: QueuedBuildResponse,
    description: 'No release: queued for release assignment',
  })
  @ApiCreatedResponse({ type: BuildResponse, description: 'With `release_id`: assigned at once' })
  @ApiErrors(400, 409, 415, 422)
  create(
    @CallerOrganizationId() organizationId: string,
    @Body() dto: CreateBuildDto,
  ): Promise<CreatedBuild> {
    return this.builds.create(organizationId, dto, 'api');
  }

  @ListRoute('', BuildResponse, 'Builds, newest first', { scopes: ['builds:read'], errors: [400] })
  list(
    @CallerOrganizationId() organizationId: string,
    @Query() query: BuildQuery,
  ): Promise<Page<BuildResponse>> {
    return this.builds.list(organizationId, query);
  }

  @ReadRoute(':id', BuildResponse, { scopes: ['builds:read'], errors: [404] })
  get(
    @CallerOrganizationId() organizationId: string,
    @PathId('build') id: string,
  ): Promise<BuildResponse> {
    return this.builds.get(organizationId, id);
  }

  @UpdateRoute(':id', BuildResponse, { scopes: ['builds:update'], errors: [400, 404, 415] })
  update(
    @CallerOrganizationId() organizationId: string,
    @PathId('build') id: string,
    @Body() dto: UpdateBuildDto,
  ): Promise<BuildResponse> {
    return this.builds.update(organizationId, id, dto);
  }
}
