import { Module } from '@nestjs/common';
import { AttachmentStorageModule } from '../storage/attachment-storage.module.js';
import { AttachmentRetention } from './attachment-retention.js';
import { RetentionRepository } from './retention.repository.js';

/** The retention sweep of attachments (worker role). */
@Module({
  imports: [AttachmentStorageModule],
  providers: [AttachmentRetention, RetentionRepository],
  exports: [AttachmentRetention],
})
export class AttachmentRetentionModule {}
