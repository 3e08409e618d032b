import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import {
  PARTITIONED_TABLES,
  defaultPartition,
  partitionChecks,
  partitionName,
  runMonthOfPartition,
  type RunMonth,
} from '../database/run-months.js';

/** The month partitions `test_result` has (every partitioned table has the same ones). */
const MONTHS = sql(
  'partitions.months',
  `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = 'test_result'::regclass`,
);

/**
 * How long a partition's change may wait for the tables' lock: it needs a moment when no
 * statement reads them, and statements queued behind it wait as long (a later pass retries).
 */
const LOCK_TIMEOUT = `SET LOCAL lock_timeout = '3s'`;

/**
 * The partitions of the tables partitioned by month of run (`run-months.ts`): which exist,
 * making one, dropping one. Names and bounds come from `run-months.ts` alone, never from a
 * client.
 */
@Injectable()
export class RunPartitionsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** The months that have partitions, oldest first. */
  async months(): Promise<RunMonth[]> {
    const rows: { name: string }[] = await this.transactions.manager.query(MONTHS);
    return rows
      .map((row) => runMonthOfPartition(row.name))
      .filter((month): month is RunMonth => month !== null)
      .sort((a, b) => a.start.getTime() - b.start.getTime());
  }

  /**
   * Makes `month`'s partitions, in the current transaction. Each is created on its own and then
   * attached (which locks the parent less than `PARTITION OF` would: reads and writes go on);
   * rows of the month that arrived before it existed, in the default partition, move into it
   * first (the default partition locked from the move to the attach, so no row of the month
   * lands there in between). False when both were there already (another replica made them).
   */
  async create(month: RunMonth): Promise<boolean> {
    const manager = this.transactions.manager;
    await manager.query(LOCK_TIMEOUT);
    let made = false;
    for (const { table, options } of PARTITIONED_TABLES) {
      const partition = partitionName(table, month);
      const [{ missing }]: { missing: boolean }[] = await manager.query(
        `SELECT to_regclass($1) IS NULL AS missing`,
        [partition],
      );
      if (!missing) continue;
      made = true;
      await manager.query(`LOCK TABLE "${defaultPartition(table)}" IN ACCESS EXCLUSIVE MODE`);
      await manager.query(
        `CREATE TABLE "${partition}" (LIKE "${table}" INCLUDING DEFAULTS) ${options}`,
      );
      await manager.query(
        `WITH moved AS (DELETE FROM "${defaultPartition(table)}"
                        WHERE test_run_id >= $1 AND test_run_id < $2 RETURNING *)
         INSERT INTO "${partition}" SELECT * FROM moved`,
        [month.from, month.to],
      );
      await manager.query(
        `ALTER TABLE "${table}" ATTACH PARTITION "${partition}"
         FOR VALUES FROM ('${month.from}') TO ('${month.to}')`,
      );
      for (const check of partitionChecks(table, partition)) await manager.query(check);
    }
    return made;
  }

  /**
   * Drops `month`'s partitions, in the current transaction: their rows go at once, without a
   * row's delete or its WAL, and their files give the disk back at commit. The tables are locked
   * (every statement on them waits) until the transaction ends: end it soon after.
   */
  async drop(month: RunMonth): Promise<void> {
    const manager = this.transactions.manager;
    await manager.query(LOCK_TIMEOUT);
    // The parents first, in the order the triggers' deletes take them: no deadlock with a delete.
    for (const { table } of [...PARTITIONED_TABLES].reverse()) {
      await manager.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    }
    for (const { table } of PARTITIONED_TABLES) {
      await manager.query(`DROP TABLE IF EXISTS "${partitionName(table, month)}"`);
    }
  }
}
