import { Module } from '@nestjs/common';
import { ResultAttachmentsModule } from '../attachments/result-attachments.module.js';
import { BuildLookupModule } from '../builds/build-lookup.module.js';
import { FlakinessModule } from '../flakiness/flakiness.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { ResultWriterModule } from './result-writer.module.js';
import { ResultDetailService } from './result-detail.service.js';
import { ResultsService } from './results.service.js';

/** A run's results as the routes read them, and one result's detail (`test-run-lifecycle/` serves them). */
@Module({
  imports: [
    TestRunLookupModule,
    ProjectLookupModule,
    BuildLookupModule,
    ResultWriterModule,
    FlakinessModule,
    ResultAttachmentsModule,
  ],
  providers: [ResultsService, ResultDetailService],
  exports: [ResultsService, ResultDetailService],
})
export class ResultsModule {}
