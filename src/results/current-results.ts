import type { TestRun } from '../testruns/entities/test-run.entity.js';
import type { ResultsRepository } from './results.repository.js';
import { countsOfNew, type Counts } from './run-counts.js';
import type { StoredResult } from './stored-result.js';

/** The last result of each slot in `results` (sorted by slot): the one that becomes current. */
export function lastOfEachSlot(results: StoredResult[]): StoredResult[] {
  return results.filter((r, k) => {
    const next = results[k + 1];
    return (
      next === undefined ||
      next.test_case_id !== r.test_case_id ||
      next.configuration !== r.configuration
    );
  });
}

/**
 * Makes `current` (one result per slot, in slot order: `lastOfEachSlot`) the slots' current
 * results in test_run_case, and returns the change to the run's counts. `newRun`: the run was
 * opened in this transaction, so every row is new and is loaded with COPY instead of upserted.
 */
export async function keepCurrentResults(
  repository: ResultsRepository,
  run: TestRun,
  current: StoredResult[],
  newRun: boolean,
): Promise<Counts> {
  if (!newRun) return repository.upsertCurrent(run, current);
  await repository.copyCurrent(run, current);
  return countsOfNew(current);
}
