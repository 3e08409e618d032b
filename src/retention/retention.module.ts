import { Module } from '@nestjs/common';
import { CaseOutcomesModule } from '../flakiness/case-outcomes.module.js';
import { RetentionInternalController } from './retention.internal.controller.js';
import { RetentionRepository } from './retention.repository.js';
import { RetentionService } from './retention.service.js';
import { RetentionSweeper } from './retention-sweeper.js';

/** The retention setting of a project, through the internal API (api role). */
@Module({
  controllers: [RetentionInternalController],
  providers: [RetentionService, RetentionRepository],
})
export class RetentionHttpModule {}

/** The sweeper that deletes runs past their project's retention (worker role). */
@Module({
  imports: [CaseOutcomesModule],
  providers: [RetentionSweeper, RetentionRepository],
  exports: [RetentionSweeper],
})
export class RetentionWorkerModule {}
