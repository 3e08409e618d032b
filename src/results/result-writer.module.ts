import { Module } from '@nestjs/common';
import { CaseIdCache } from './case-id-cache.js';
import { CaseResolver } from './case-resolver.js';
import { ResultWriter } from './result-writer.js';

@Module({
  providers: [
    ResultWriter,
    CaseResolver,
    { provide: CaseIdCache, useFactory: () => new CaseIdCache() },
  ],
  exports: [ResultWriter],
})
export class ResultWriterModule {}
