import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InternalApi } from '../auth/access.decorators.js';
import { ApiErrors, ApiPageResponse } from '../common/openapi.decorators.js';
import { ParseIdPipe } from '../common/ids.js';
import { PaginationQuery, type Page } from '../common/pagination/pagination.js';
import { CreateReleaseDto, ReleaseResponse, UpdateReleaseDto } from './dto/release.dto.js';
import { ReleasesService } from './releases.service.js';

@ApiTags('internal')
@InternalApi()
@Controller('internal/v1')
export class ReleasesInternalController {
  constructor(private readonly releases: ReleasesService) {}

  @Post('projects/:id/releases')
  @ApiErrors(400, 404, 409, 415, 422)
  @ApiCreatedResponse({ type: ReleaseResponse })
  create(
    @Param('id', new ParseIdPipe('project')) projectId: string,
    @Body() dto: CreateReleaseDto,
  ): Promise<ReleaseResponse> {
    return this.releases.create(projectId, dto);
  }

  @Get('projects/:id/releases')
  @ApiErrors(400, 404)
  @ApiPageResponse(ReleaseResponse, 'Releases of the project, newest first')
  list(
    @Param('id', new ParseIdPipe('project')) projectId: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<ReleaseResponse>> {
    return this.releases.list(projectId, query);
  }

  @Patch('releases/:id')
  @ApiErrors(400, 404, 409, 415)
  @ApiOkResponse({ type: ReleaseResponse })
  update(
    @Param('id', new ParseIdPipe('release')) id: string,
    @Body() dto: UpdateReleaseDto,
  ): Promise<ReleaseResponse> {
    return this.releases.update(id, dto);
  }
}
