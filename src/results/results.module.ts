import { Module } from '@nestjs/common';
import { ResultAttachmentsModule } from '../attachments/result-attachments.module.js';
import { FlakinessModule } from '../flakiness/flakiness.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { ResultWriterModule } from './result-writer.module.js';
import { ResultsService } from './results.service.js';

/** A run's results as the routes read them (`test-run-lifecycle/` serves them). */
@Module({
  imports: [
    TestRunLookupModule,
    ProjectLookupModule,
    ResultWriterModule,
    FlakinessModule,
    ResultAttachmentsModule,
  ],
  providers: [ResultsService],
  exports: [ResultsService],
})
export class ResultsModule {}
