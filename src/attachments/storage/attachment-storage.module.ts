import { Module } from '@nestjs/common';
import { Settings } from '../../config/settings.js';
import { AttachmentStore } from './attachment-store.js';
import { FilesystemStore } from './filesystem-store.js';
import { S3Store } from './s3-store.js';

/** The store `ATTACHMENT_STORAGE` names, for the API (uploads, reads) and the worker (retention). */
@Module({
  providers: [
    {
      provide: AttachmentStore,
      inject: [Settings],
      useFactory: (settings: Settings): AttachmentStore => {
        const { s3, dir } = settings.attachments;
        return s3 === null ? new FilesystemStore(dir) : new S3Store(s3);
      },
    },
  ],
  exports: [AttachmentStore],
})
export class AttachmentStorageModule {}
