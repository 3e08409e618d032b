import type { TestRun } from '../testruns/entities/test-run.entity.js';
import type { ResultsRepository } from './results.repository.js';
import { countsOfNew, type Counts } from './run-counts.js';
import type { StoredResult } from './stored-result.js';

/**
 * Makes the last result of each case in `results` (sorted by case) its current one in
 * test_run_case, and returns the change to the run's counts. `newRun`: the run was opened in
 * this transaction, so every row is new and is loaded with COPY instead of upserted.
 */
export async function keepCurrentResults(
  repository: ResultsRepository,
  run: TestRun,
  results: StoredResult[],
  newRun: boolean,
): Promise<Counts> {
  const current = results.filter(
    (r, k) => k === results.length - 1 || results[k + 1].test_case_id !== r.test_case_id,
  );
  if (!newRun) return repository.upsertCurrent(run, current);
  await repository.copyCurrent(run, current);
  return countsOfNew(current);
}
