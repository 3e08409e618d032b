import { partitionOfRun, type PartitionedTable } from './run-months.js';
import { sql } from './sql.js';
import type { Transactions } from './transactions.js';

const EXISTS = sql('partitions.exists', 'SELECT to_regclass($1) IS NOT NULL AS found');

/**
 * Which table a run's new rows are copied into: its month's partition when it exists (a COPY
 * into it is batched, one into the partitioned table with statement triggers is not; the
 * partition has the same reference checks, `PARTITION_CHECKS`), else the partitioned table,
 * which routes them (to the default partition when the month has none yet). Months found are
 * remembered for the process's life: a month goes only with every run in it.
 */
export class RunPartitionLookup {
  private readonly known = new Set<string>();

  constructor(private readonly transactions: Transactions) {}

  /** `COPY <table> (…)` rewritten to name the table run `runId`'s rows go to. */
  async of(table: PartitionedTable, runId: string): Promise<(copy: string) => string> {
    const partition = partitionOfRun(table, runId);
    if (partition !== null && !this.known.has(partition)) {
      const [{ found }]: { found: boolean }[] = await this.transactions.manager.query(EXISTS, [
        partition,
      ]);
      if (found) this.known.add(partition);
    }
    const target = partition !== null && this.known.has(partition) ? `"${partition}"` : table;
    return (copy) => copy.replace(`COPY ${table} (`, `COPY ${target} (`);
  }
}
