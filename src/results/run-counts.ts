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

/** The configurations of a batch's items, each once, sorted; none for the items without one. */
export function configurationsOf(items: ReadonlyArray<{ configuration: string | null }>): string[] {
  const configurations = new Set<string>();
  for (const item of items) if (item.configuration !== null) configurations.add(item.configuration);
  return [...configurations].sort();
}
