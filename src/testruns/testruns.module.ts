import { Module } from '@nestjs/common';
import { BuildLookupModule } from '../builds/build-lookup.module.js';
import { CaseOutcomesModule } from '../flakiness/case-outcomes.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { ReleaseLookupModule } from '../releases/release-lookup.module.js';
import { InsightsModule } from '../insights/insights.module.js';
import { ResultWriterModule } from '../results/result-writer.module.js';
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
  ],
  controllers: [TestRunsController, TestRunsInternalController],
  providers: [TestRunsService, TestRunsRepository],
  exports: [TestRunsService, TestRunLookupModule],
})
export class TestRunsModule {}
