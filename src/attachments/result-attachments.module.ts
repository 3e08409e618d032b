import { Module } from '@nestjs/common';
import { AttachmentLinks } from './attachment-links.js';
import { AttachmentsRepository } from './attachments.repository.js';
import { ResultAttachments } from './result-attachments.js';

/**
 * Results' attachments as results' readers list them, and the service's signed links to their
 * bytes: a module of its own that needs only the database, so `results/` can import it without
 * the routes and the store. `AttachmentsModule` takes its `AttachmentLinks` from here, so the
 * process keeps one copy of the signing key.
 */
@Module({
  providers: [ResultAttachments, AttachmentsRepository, AttachmentLinks],
  exports: [ResultAttachments, AttachmentLinks],
})
export class ResultAttachmentsModule {}
