import { Module } from '@nestjs/common';
import { HttpPipelineModule } from '../http-pipeline.module.js';
import { TestRunLookupModule } from '../testruns/test-run-lookup.module.js';
import { AttachmentTransfersController } from './attachment-transfers.controller.js';
import { AttachmentTransfersService } from './attachment-transfers.service.js';
import { AttachmentsController } from './attachments.controller.js';
import { AttachmentsRepository } from './attachments.repository.js';
import { AttachmentsService } from './attachments.service.js';
import { ResultAttachmentsModule } from './result-attachments.module.js';
import { AttachmentStorageModule } from './storage/attachment-storage.module.js';

/** Attachments of results (CONTRACT §15): their routes, their rows and their store. */
@Module({
  imports: [
    HttpPipelineModule,
    TestRunLookupModule,
    AttachmentStorageModule,
    ResultAttachmentsModule,
  ],
  controllers: [AttachmentsController, AttachmentTransfersController],
  providers: [AttachmentsService, AttachmentTransfersService, AttachmentsRepository],
  exports: [AttachmentsService],
})
export class AttachmentsModule {}
