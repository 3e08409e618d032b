import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RouteCaller } from '../routes/access.decorators.js';
import { ReadRoute } from '../routes/route.decorators.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { ReleaseProgressResponse } from '../releases/dto/release-progress.dto.js';
import { ReleaseOverviews } from './release-overviews.service.js';

@ApiTags('releases')
@Controller('releases')
export class ReleasesController {
  constructor(private readonly overviews: ReleaseOverviews) {}

  @ReadRoute(':id/progress', ReleaseProgressResponse, { scopes: ['testruns:read'], errors: [404] })
  progress(
    @RouteCaller() caller: Caller,
    @PathId('release') id: string,
  ): Promise<ReleaseProgressResponse> {
    return this.overviews.progress(caller, id);
  }
}
