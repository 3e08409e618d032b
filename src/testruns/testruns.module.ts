import { Module } from '@nestjs/common';
import { SessionsModule } from '../auth/sessions/sessions.module.js';
import { BuildLookupModule } from '../builds/build-lookup.module.js';
import { CaseOutcomesModule } from '../flakiness/case-outcomes.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ReleaseLookupModule } from '../releases/release-lookup.module.js';
import { InsightsModule } from '../insights/insights.module.js';
import { ResultWriterModule } from '../results/result-writer.module.js';
import { RunLiveService } from './live/run-live.service.js';
import { TestRunLiveInternalController } from './live/test-run-live.internal.controller.js';
import { TestRunLookupModule } from './test-run-lookup.module.js';
import { TestRunsInternalController } from './testruns.internal.controller.js';
import { TestRunsController } from './testruns.controller.js';
import { TestRunsRepository } from './test-runs.repository.js';
import { TestRunsService } from './testruns.service.js';

@Module({
  imports: [
    TestRunLookupModule,
    ProjectLookupModule,
    ReleaseLookupModule,
    BuildLookupModule,
    ResultWriterModule,
    InsightsModule,
    CaseOutcomesModule,
    // Live streams end with the console session that opened them.
    SessionsModule,
  ],
  controllers: [TestRunsController, TestRunsInternalController, TestRunLiveInternalController],
  providers: [TestRunsService, TestRunsRepository, RunLiveService],
  exports: [TestRunsService, TestRunLookupModule],
})
export class TestRunsModule {}
