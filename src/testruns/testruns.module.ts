import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module.js';
import { ResultWriterModule } from '../results/result-writer.module.js';
import { TestRunsInternalController } from './testruns.internal.controller.js';
import { TestRunsController } from './testruns.controller.js';
import { TestRunsService } from './testruns.service.js';

@Module({
  imports: [ProjectsModule, ResultWriterModule],
  controllers: [TestRunsController, TestRunsInternalController],
  providers: [TestRunsService],
  exports: [TestRunsService],
})
export class TestRunsModule {}
