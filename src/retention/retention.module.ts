import { Module } from '@nestjs/common';
import { AttachmentRetentionModule } from '../attachments/retention/attachment-retention.module.js';
import { CaseOutcomesModule } from '../flakiness/case-outcomes.module.js';
import { RunPartitionsModule } from '../partitions/partitions.module.js';
import { ReleaseSlotsModule } from '../results/release-slots.module.js';
import { RetentionInternalController } from './retention.internal.controller.js';
import { RunRetentionRepository } from './retention.repository.js';
import { RetentionService } from './retention.service.js';
import { RetentionSweeper } from './retention-sweeper.js';

/** The retention setting of a project, through the internal API (api role). */
@Module({
  controllers: [RetentionInternalController],
  providers: [RetentionService, RunRetentionRepository],
})
export class RetentionHttpModule {}

/** The sweeper that deletes runs past their project's retention (worker role). */
@Module({
  imports: [CaseOutcomesModule, AttachmentRetentionModule, ReleaseSlotsModule, RunPartitionsModule],
  providers: [RetentionSweeper, RunRetentionRepository],
  exports: [RetentionSweeper],
})
export class RetentionWorkerModule {}
