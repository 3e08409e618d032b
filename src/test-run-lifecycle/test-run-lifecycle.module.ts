import { Module } from '@nestjs/common';
import { SessionsModule } from '../auth/sessions/sessions.module.js';
import { CaseOutcomesModule } from '../flakiness/case-outcomes.module.js';
import { RunVerdictsModule } from '../insights/run-verdicts/run-verdicts.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ResultWriterModule } from '../results/result-writer.module.js';
import { FailureSearchInternalController } from '../results/failure-search.internal.controller.js';
import { ResultDetailInternalController } from '../results/result-detail.internal.controller.js';
import { ResultsModule } from '../results/results.module.js';
import { TestRunLiveInternalController } from '../testruns/live/test-run-live.internal.controller.js';
import { TestRunsModule } from '../testruns/testruns.module.js';
import { CreateTestRun } from './create-test-run.usecase.js';
import { IngestResults } from './ingest-results.usecase.js';
import { MoveTestRun } from './move-test-run.js';
import { OpenTestRun } from './open-test-run.js';
import { ReopenTestRun } from './reopen-test-run.js';
import { ResultsInternalController } from './results.internal.controller.js';
import { ResultsController } from './results.controller.js';
import { SubmitResults } from './submit-results.usecase.js';
import { TestRunsInternalController } from './testruns.internal.controller.js';
import { TestRunsController } from './testruns.controller.js';
import { TransitionTestRun } from './transition-test-run.usecase.js';
import { WriteRunResults } from './write-run-results.js';

/**
 * A test run's life, above the features it spans: created with its cases, results submitted
 * or ingested into it, submitted, completed and reopened. Each use case is one file; the routes of runs
 * and their results are served here, in this order (the OpenAPI documents list them so).
 */
@Module({
  imports: [
    TestRunsModule,
    ResultsModule,
    ResultWriterModule,
    ProjectLookupModule,
    CaseOutcomesModule,
    RunVerdictsModule,
    // Live streams end with the console session that opened them.
    SessionsModule,
  ],
  controllers: [
    TestRunsController,
    TestRunsInternalController,
    TestRunLiveInternalController,
    ResultsController,
    ResultsInternalController,
    ResultDetailInternalController,
    FailureSearchInternalController,
  ],
  providers: [
    OpenTestRun,
    CreateTestRun,
    MoveTestRun,
    ReopenTestRun,
    TransitionTestRun,
    WriteRunResults,
    SubmitResults,
    IngestResults,
  ],
})
export class TestRunLifecycleModule {}
