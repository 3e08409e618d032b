import { Module } from '@nestjs/common';
import { CaseOutcomes } from './case-outcomes.js';
import { CaseOutcomesRepository } from './case-outcomes.repository.js';

/** The flaky list's summary, as the writers of runs and results keep it; needs only the database. */
@Module({
  providers: [CaseOutcomes, CaseOutcomesRepository],
  exports: [CaseOutcomes],
})
export class CaseOutcomesModule {}
