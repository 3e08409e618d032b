import { Module } from '@nestjs/common';
import { BuildLookupModule } from '../builds/build-lookup.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ReleaseLookupModule } from '../releases/release-lookup.module.js';
import { RunLiveService } from './live/run-live.service.js';
import { RunListRepository } from './run-list.repository.js';
import { RunListService } from './run-list.service.js';
import { TestRunLookupModule } from './test-run-lookup.module.js';
import { TestRunWrites } from './test-run-writes.js';
import { TestRunsRepository } from './test-runs.repository.js';
import { TestRunsService } from './testruns.service.js';

/**
 * Test runs' table and reads, the low operations the lifecycle's use cases change a run with
 * (`TestRunWrites`), the console's runs list with its builds' context (`RunListService`) and
 * the live streams; the routes are `test-run-lifecycle/`'s.
 */
@Module({
  imports: [TestRunLookupModule, ProjectLookupModule, ReleaseLookupModule, BuildLookupModule],
  providers: [
    TestRunsService,
    TestRunsRepository,
    TestRunWrites,
    RunLiveService,
    RunListService,
    RunListRepository,
  ],
  exports: [
    TestRunsService,
    TestRunsRepository,
    TestRunWrites,
    RunLiveService,
    RunListService,
    TestRunLookupModule,
  ],
})
export class TestRunsModule {}
