import { Module } from '@nestjs/common';
import { BuildLookupModule } from '../builds/build-lookup.module.js';
import { FlakinessModule } from '../flakiness/flakiness.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ReleasesModule } from '../releases/releases.module.js';
import { ReleaseResultsModule } from '../results/release-results.module.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { ReleaseOverviews } from './release-overviews.service.js';
import { ReleaseProgress } from './release-progress.js';
import { ReleasesInternalController } from './releases.internal.controller.js';
import { ReleasesController } from './releases.controller.js';

/**
 * A release's progress, counted by the modules built on releases (builds, runs, results), and
 * the release routes, which show it: above those modules, so that `releases/` stays below them.
 */
@Module({
  imports: [
    ReleasesModule,
    ProjectLookupModule,
    BuildLookupModule,
    TestRunLookupModule,
    ReleaseResultsModule,
    FlakinessModule,
  ],
  controllers: [ReleasesController, ReleasesInternalController],
  providers: [ReleaseProgress, ReleaseOverviews],
})
export class ReleaseProgressModule {}
