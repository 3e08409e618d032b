import type { Transactions } from '../database/transactions.js';
import { prepared } from '../database/preparing-client.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { RESULT_STATUSES, type ResultStatus } from './entities/result-status.js';

/** A run's counts: its cases, by their current result's status, and the flaky ones. */
type CountColumn = ResultStatus | 'flaky' | 'total';

export const COUNT_COLUMNS: readonly CountColumn[] = ['total', ...RESULT_STATUSES, 'flaky'];

/** A run's counts, or a change to them. */
export type Counts = Record<CountColumn, number>;

export function noCounts(): Counts {
  return Object.fromEntries(COUNT_COLUMNS.map((c) => [c, 0])) as Counts;
}

/** Adds `change` to `counts`. */
export function addTo(counts: Counts, change: Counts): void {
  for (const column of COUNT_COLUMNS) counts[column] += change[column];
}

/** The counts that current results, all of them new to the run, add. */
export function countsOfNew(
  current: ReadonlyArray<{ status: ResultStatus; flaky: boolean }>,
): Counts {
  const change = noCounts();
  change.total = current.length;
  for (const r of current) {
    change[r.status]++;
    if (r.flaky) change.flaky++;
  }
  return change;
}

/**
 * The change to a run's counts from the rows an upsert of current results returns (`created`,
 * `status`, `flaky`, `replaced_status`, `replaced_flaky`): a new row adds its status, a
 * replaced one moves a count from the old status to the new one.
 */
export const COUNT_CHANGES = [
  'count(*) FILTER (WHERE created)::int AS total',
  ...RESULT_STATUSES.map(
    (status) =>
      `(count(*) FILTER (WHERE status = '${status}') - count(*) FILTER (WHERE NOT created AND replaced_status = '${status}'))::int AS ${status}`,
  ),
  '(count(*) FILTER (WHERE flaky) - count(*) FILTER (WHERE NOT created AND replaced_flaky))::int AS flaky',
].join(', ');

/** Adds a change to a run's counts. */
const ADD_COUNTS = prepared(
  `UPDATE test_run SET ${COUNT_COLUMNS.map((c, i) => `${c} = ${c} + $${i + 2}`).join(', ')}, updated_at = now()
    WHERE id = $1`,
);

/** Adds `change` to the run's counts, in the database (one atomic increment) and on `run`. */
export async function addToRunCounts(
  transactions: Transactions,
  run: TestRun,
  change: Counts,
): Promise<void> {
  const manager = transactions.manager;
  await manager.query(ADD_COUNTS, [run.id, ...COUNT_COLUMNS.map((c) => change[c])]);
  addTo(run, change);
}
