import type { Transactions } from '../database/transactions.js';
import { arrayLiteral, copyInto, copyLines } from '../database/copy.js';
import { prepared } from '../database/preparing-client.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { COUNT_CHANGES, countsOfNew, type Counts } from './run-counts.js';
import type { StoredResult } from './stored-result.js';

/**
 * Makes each case's result its current one (one row per case, in case order) and returns the
 * change to the run's counts. Prepared once per connection: it runs for every batch, and its
 * plan does not depend on its parameters.
 */
const UPSERT_CURRENT = prepared(
  `WITH changed AS (
         INSERT INTO test_run_case AS c (test_run_id, test_case_id, result_id, status, flaky)
         SELECT $1, x.test_case_id, x.id, x.status, x.flaky
           FROM unnest($2::uuid[], $3::uuid[], $4::result_status[], $5::boolean[])
                WITH ORDINALITY AS x(test_case_id, id, status, flaky, n)
          ORDER BY x.n
         ON CONFLICT (test_run_id, test_case_id) DO UPDATE
            SET result_id = EXCLUDED.result_id, status = EXCLUDED.status, flaky = EXCLUDED.flaky,
                replaced_status = c.status, replaced_flaky = c.flaky
         RETURNING c.status, c.flaky, xmax = 0 AS created, c.replaced_status, c.replaced_flaky
       )
       SELECT ${COUNT_CHANGES} FROM changed`,
);

/**
 * Makes the last result of each case in `results` (sorted by case) its current one in
 * test_run_case, and returns the change to the run's counts. `newRun`: the run was opened in
 * this transaction, so every row is new and is loaded with COPY instead.
 */
export function keepCurrentResults(
  transactions: Transactions,
  run: TestRun,
  results: StoredResult[],
  newRun: boolean,
): Promise<Counts> {
  const current = results.filter(
    (r, k) => k === results.length - 1 || results[k + 1].test_case_id !== r.test_case_id,
  );
  return newRun
    ? insertCurrent(transactions, run, current)
    : upsertCurrent(transactions, run, current);
}

/**
 * The upsert runs atomically under the rows' locks (concurrent batches into one run share
 * cases), so the change it returns is exact.
 */
async function upsertCurrent(
  transactions: Transactions,
  run: TestRun,
  current: StoredResult[],
): Promise<Counts> {
  const manager = transactions.manager;
  const [change]: Counts[] = await manager.query(UPSERT_CURRENT, [
    run.id,
    arrayLiteral(current.map((r) => r.test_case_id)),
    arrayLiteral(current.map((r) => r.id)),
    arrayLiteral(current.map((r) => r.status)),
    arrayLiteral(current.map((r) => (r.flaky ? 't' : 'f'))),
  ]);
  return change;
}

async function insertCurrent(
  transactions: Transactions,
  run: TestRun,
  current: StoredResult[],
): Promise<Counts> {
  await copyInto(
    transactions,
    'test_run_case',
    'test_run_id, test_case_id, result_id, status, flaky',
    copyLines(
      current,
      (r) => `${run.id}\t${r.test_case_id}\t${r.id}\t${r.status}\t${r.flaky ? 't' : 'f'}\n`,
    ),
  );
  return countsOfNew(current);
}
