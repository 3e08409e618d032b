import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Principal, RequireScopes } from '../auth/access.decorators.js';
import type { ApiPrincipal } from '../auth/api-principal.js';
import { ParseIdPipe } from '../common/ids.js';
import { ApiErrors } from '../common/openapi.decorators.js';
import { ReleaseProgressResponse } from './dto/release-progress.dto.js';
import { ReleasesService } from './releases.service.js';

@ApiTags('releases')
@Controller('releases')
export class ReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  @Get(':id/progress')
  @RequireScopes('testruns:read')
  @ApiOkResponse({ type: ReleaseProgressResponse })
  @ApiErrors(404)
  progress(
    @Principal() principal: ApiPrincipal,
    @Param('id', new ParseIdPipe('release')) id: string,
  ): Promise<ReleaseProgressResponse> {
    return this.releases.progress(principal.organization.id, id);
  }
}
