import { Module } from '@nestjs/common';
import { TestRunLookup } from './test-run-lookup.js';
import { TestRunsRepository } from './test-runs.repository.js';

/**
 * Test runs as other modules may read them. A module of its own, depending on nothing but
 * the database, so that releases (which count runs) and results can import it while test
 * runs import releases' and builds' look-ups in turn.
 */
@Module({
  providers: [TestRunLookup, TestRunsRepository],
  exports: [TestRunLookup],
})
export class TestRunLookupModule {}
