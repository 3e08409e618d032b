import { Body, HttpCode, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { RouteCaller } from '../routes/access.decorators.js';
import { InternalController, ListRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { PathId } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { BuildsService, type CreatedBuild } from './builds.service.js';
import {
  AssignBuildDto,
  BuildResponse,
  CreateBuildDto,
  QueuedBuildResponse,
} from './dto/build.dto.js';

@InternalController()
export class BuildsInternalController {
  constructor(private readonly builds: BuildsService) {}

  @Post('organizations/:id/builds')
  @ApiErrors(400, 404, 409, 415, 422)
  @ApiAcceptedResponse({ type: QueuedBuildResponse })
  @ApiCreatedResponse({ type: BuildResponse })
  create(
    @PathId('organization') organizationId: string,
    @Body() dto: CreateBuildDto,
  ): Promise<CreatedBuild> {
    return this.builds.createInOrganization(organizationId, dto);
  }

  @ListRoute('organizations/:id/build-queue', BuildResponse, 'Planned builds in queue order', {
    errors: [400, 404],
  })
  queue(
    @PathId('organization') organizationId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<BuildResponse>> {
    return this.builds.queueOf(organizationId, query);
  }

  @Post('builds/:id/assign')
  @ApiErrors(400, 404, 409, 415, 422)
  @HttpCode(200)
  @ApiOkResponse({ type: BuildResponse })
  assign(
    @RouteCaller() caller: Caller,
    @PathId('build') id: string,
    @Body() dto: AssignBuildDto,
  ): Promise<BuildResponse> {
    return this.builds.assign(caller, id, dto.release_id);
  }
}
