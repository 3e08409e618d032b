import { Module } from '@nestjs/common';
import { FlakinessModule } from '../flakiness/flakiness.module.js';
import { ProjectLookupModule } from '../projects/project-lookup.module.js';
import { TestRunsModule } from '../testruns/testruns.module.js';
import { ResultWriterModule } from './result-writer.module.js';
import { ResultsController } from './results.controller.js';
import { ResultsInternalController } from './results.internal.controller.js';
import { ResultsService } from './results.service.js';

@Module({
  imports: [TestRunsModule, ProjectLookupModule, ResultWriterModule, FlakinessModule],
  controllers: [ResultsController, ResultsInternalController],
  providers: [ResultsService],
})
export class ResultsModule {}
