import { Module } from '@nestjs/common';
import { BuildLookupModule } from '../builds/build-lookup.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ReleaseResultsModule } from '../results/release-results.module.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { ReleaseLookupModule } from './release-lookup.module.js';
import { ReleaseProgress } from './release-progress.js';
import { ReleasesController } from './releases.controller.js';
import { ReleasesInternalController } from './releases.internal.controller.js';
import { ReleasesRepository } from './releases.repository.js';
import { ReleasesService } from './releases.service.js';

@Module({
  imports: [
    ReleaseLookupModule,
    ProjectLookupModule,
    BuildLookupModule,
    TestRunLookupModule,
    ReleaseResultsModule,
  ],
  controllers: [ReleasesController, ReleasesInternalController],
  providers: [ReleasesService, ReleasesRepository, ReleaseProgress],
  exports: [ReleasesService, ReleaseLookupModule],
})
export class ReleasesModule {}
