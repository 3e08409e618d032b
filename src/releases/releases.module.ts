import { Module } from '@nestjs/common';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ReleaseLookupModule } from './release-lookup.module.js';
import { ReleasesRepository } from './releases.repository.js';
import { ReleasesService } from './releases.service.js';

/** Releases' table and changes; their routes and progress are `release-progress/`'s. */
@Module({
  imports: [ReleaseLookupModule, ProjectLookupModule],
  providers: [ReleasesService, ReleasesRepository],
  exports: [ReleasesService, ReleasesRepository, ReleaseLookupModule],
})
export class ReleasesModule {}
