import { Module } from '@nestjs/common';
import { ResultAttachmentsModule } from '../attachments/result-attachments.module.js';
import { BuildLookupModule } from '../builds/build-lookup.module.js';
import { FlakinessModule } from '../flakiness/flakiness.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { ResultWriterModule } from './result-writer.module.js';
import { ResultDetailService } from './result-detail.service.js';
import { FailureSearchRepository } from './failure-search.repository.js';
import { FailureSearchService } from './failure-search.service.js';
import { ResultsExportRepository } from './results-export.repository.js';
import { ResultsExportService } from './results-export.service.js';
import { ResultsService } from './results.service.js';

/** A run's results as the routes read them (a page, or all as CSV), a project's
 * recent results searched by error text, and one result's detail (`test-run-lifecycle/` serves them). */
@Module({
  imports: [
    TestRunLookupModule,
    ProjectLookupModule,
    BuildLookupModule,
    ResultWriterModule,
    FlakinessModule,
    ResultAttachmentsModule,
  ],
  providers: [
    ResultsService,
    ResultDetailService,
    ResultsExportService,
    ResultsExportRepository,
    FailureSearchService,
    FailureSearchRepository,
  ],
  exports: [ResultsService, ResultDetailService, ResultsExportService, FailureSearchService],
})
export class ResultsModule {}
