import { Module } from '@nestjs/common';
import { BuildLookupModule } from '../builds/build-lookup.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ReleaseResults } from '../results/release-results.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { ReleaseLookupModule } from './release-lookup.module.js';
import { ReleaseProgress } from './release-progress.js';
import { ReleasesController } from './releases.controller.js';
import { ReleasesInternalController } from './releases.internal.controller.js';
import { ReleasesRepository } from './releases.repository.js';
import { ReleasesService } from './releases.service.js';

@Module({
  imports: [ReleaseLookupModule, ProjectLookupModule, BuildLookupModule, TestRunLookupModule],
  controllers: [ReleasesController, ReleasesInternalController],
  // ReleaseResults belongs to the results module; provided here until that module exports it.
  providers: [ReleasesService, ReleasesRepository, ReleaseProgress, ReleaseResults],
  exports: [ReleasesService, ReleaseLookupModule],
})
export class ReleasesModule {}
