import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { ParseIdPipe } from '../common/ids.js';
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
  create(@Principal() principal: ApiPrincipal, @Body() dto: CreateBuildDto): Promise<CreatedBuild> {
    return this.builds.create(principal.organization.id, dto, 'api');
  }

  @Get()
  @RequireScopes('builds:read')
  @ApiPageResponse(BuildResponse, 'Builds, newest first')
  @ApiErrors(400)
  list(
    @Principal() principal: ApiPrincipal,
    @Query() query: BuildQuery,
  ): Promise<Page<BuildResponse>> {
    return this.builds.list(principal.organization.id, query);
  }

  @Get(':id')
  @RequireScopes('builds:read')
  @ApiOkResponse({ type: BuildResponse })
  @ApiErrors(404)
  get(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('build')) id: string,
  ): Promise<BuildResponse> {
    return this.builds.get(principal.organization.id, id);
  }

  @Patch(':id')
  @RequireScopes('builds:update')
  @ApiOkResponse({ type: BuildResponse })
  @ApiErrors(400, 404, 415)
  update(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('build')) id: string,
    @Body() dto: UpdateBuildDto,
  ): Promise<BuildResponse> {
    return this.builds.update(principal.organization.id, id, dto);
  }
}
