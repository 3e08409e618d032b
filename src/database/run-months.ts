/**
 * The months that partition what grows with results (issue 29). `test_result` and
 * `test_run_case` are partitioned by range of `test_run_id`: a run's id is a UUIDv7, whose first
 * 48 bits are the milliseconds of its creation, so the ids of the runs created in one month
 * (UTC) form one range of uuids, and every row of a run lives in its run's month, whenever the
 * row was written. Rows of a run whose id is not a UUIDv7 (runs made before ids were, before
 * 2026-11-22) live in the tables' default partition, unless their random id happens to fall in
 * a month's range (about one in 100,000 per month): then in that month, which retention treats
 * alike (it finds a month's runs by the same range).
 *
 * Pure: the names and bounds the migration and the worker share.
 */

/** The partitioned tables, with what each month's partition is created with. */
export const PARTITIONED_TABLES = [
  { table: 'test_result', options: '' },
  // A slot's row is rewritten as its later results arrive: room for the HOT update on its page.
  { table: 'test_run_case', options: 'WITH (fillfactor = 70)' },
] as const;

export type PartitionedTable = (typeof PARTITIONED_TABLES)[number]['table'];

/**
 * The statement-level checks of each table's references (`ReferencesCheckedPerStatement`),
 * made on each partition too: a statement fires the triggers of the table it names, and the
 * writers COPY a run's new rows straight into its month's partition (PostgreSQL batches a COPY
 * into a partition, but not one into a partitioned table that has such a trigger).
 */
export const PARTITION_CHECKS: Record<PartitionedTable, string[]> = {
  test_result: ['test_result_run_case_check'],
  test_run_case: ['test_run_case_case_check', 'test_run_case_run_check'],
};

/** The statements that make `table`'s reference checks on its partition `partition`. */
export function partitionChecks(table: PartitionedTable, partition: string): string[] {
  return PARTITION_CHECKS[table].map(
    (check) => `CREATE TRIGGER ${check} AFTER INSERT ON "${partition}"
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${check}()`,
  );
}

/** The month partition of `table` that holds run `runId`'s rows, if its id is a UUIDv7. */
export function partitionOfRun(table: PartitionedTable, runId: string): string | null {
  const time = uuid7Time(runId);
  return time === null ? null : partitionName(table, runMonthOf(time));
}

/** Months created ahead of the current one, so that a run's month exists before it starts. */
export const MONTHS_AHEAD = 2;

/** One month of runs, in UTC. */
export interface RunMonth {
  /** `y2026m11`: the partitions are `test_result_y2026m11` and `test_run_case_y2026m11`. */
  suffix: string;
  start: Date;
  /** The next month's start: the month is `[start, end)`. */
  end: Date;
  /** The smallest run id of the month, and the next month's (exclusive). */
  from: string;
  to: string;
}

/** The month `time` falls in. */
export function runMonthOf(time: Date | number): RunMonth {
  const at = new Date(time);
  return runMonth(at.getUTCFullYear(), at.getUTCMonth());
}

/** The month after `month`. */
export function monthAfter(month: RunMonth): RunMonth {
  return runMonthOf(month.end);
}

/** The month a partition's name ends with (`test_result_y2026m11`), or null for another name. */
export function runMonthOfPartition(name: string): RunMonth | null {
  const match = /_y(\d{4})m(\d{2})$/.exec(name);
  if (!match) return null;
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? runMonth(Number(match[1]), month - 1) : null;
}

/** The partition of `table` for `month`. */
export function partitionName(table: PartitionedTable, month: RunMonth): string {
  return `${table}_${month.suffix}`;
}

/** The default partition of `table`: rows of runs with other ids (not UUIDv7, or no month yet). */
export function defaultPartition(table: PartitionedTable): string {
  return `${table}_default`;
}

/** The smallest UUIDv7 of millisecond `ms` (every other field zero). */
export function uuid7Floor(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** The millisecond a UUIDv7 was made in, or null when `id` is not a UUIDv7. */
export function uuid7Time(id: string): number | null {
  if (id.length !== 36 || id[14] !== '7') return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : null;
}

function runMonth(year: number, monthIndex: number): RunMonth {
  const start = new Date(Date.UTC(year, monthIndex, 1));
  const end = new Date(Date.UTC(year, monthIndex + 1, 1));
  const suffix = `y${start.getUTCFullYear()}m${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
  return { suffix, start, end, from: uuid7Floor(start.getTime()), to: uuid7Floor(end.getTime()) };
}
