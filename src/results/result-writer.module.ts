import { Module } from '@nestjs/common';
import { CaseOutcomesModule } from '../flakiness/case-outcomes.module.js';
import { CaseIdCache } from './case-id-cache.js';
import { CaseResolver } from './case-resolver.js';
import { ResultCasesRepository } from './result-cases.repository.js';
import { ReleaseSlotsModule } from './release-slots.module.js';
import { ResultWriter } from './result-writer.js';
import { ResultsRepository } from './results.repository.js';

@Module({
  imports: [CaseOutcomesModule, ReleaseSlotsModule],
  providers: [
    ResultWriter,
    CaseResolver,
    ResultsRepository,
    ResultCasesRepository,
    { provide: CaseIdCache, useFactory: () => new CaseIdCache() },
  ],
  exports: [ResultWriter, ResultsRepository],
})
export class ResultWriterModule {}
