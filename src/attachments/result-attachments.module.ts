import { Module } from '@nestjs/common';
import { AttachmentsRepository } from './attachments.repository.js';
import { ResultAttachments } from './result-attachments.js';

/**
 * Results' attachments as results' readers list them: a module of its own that needs only the
 * database, so `results/` can import it without the routes and the store.
 */
@Module({
  providers: [ResultAttachments, AttachmentsRepository],
  exports: [ResultAttachments],
})
export class ResultAttachmentsModule {}
