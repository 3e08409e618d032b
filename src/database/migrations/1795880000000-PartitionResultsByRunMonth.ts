import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  MONTHS_AHEAD,
  PARTITIONED_TABLES,
  defaultPartition,
  partitionChecks,
  monthAfter,
  partitionName,
  runMonthOf,
  uuid7Time,
  type RunMonth,
} from '../run-months.js';

/**
 * `test_result` and `test_run_case` partitioned by month of their run (issue 29): by range of
 * `test_run_id` (a UUIDv7, so a month of runs is a range of ids; `database/run-months.ts`),
 * one partition per month from the first run's month to `MONTHS_AHEAD` months from now (the
 * worker keeps creating them ahead, `partitions/`), and a default partition for the rows of
 * runs whose ids are not UUIDv7 (made before 2026-11-22). A month can then leave as a whole
 * (retention drops its partitions) instead of row by row.
 *
 * The keys must hold the partition key: `test_result`'s becomes (id, test_run_id), so a result
 * is still found by its id alone (an index probe per month), and with its run in one probe;
 * `test_run_case`'s already starts with it; the indexes are the same, one per partition.
 *
 * The rows are moved: the tables are renamed, the partitioned ones created beside them, the
 * rows copied in run order, then the keys and indexes built (one sort each instead of an
 * insertion per row), the per-statement reference triggers (`ReferencesCheckedPerStatement`)
 * made again on the new tables, and the old tables dropped. The triggers that delete a
 * parent's rows name the parents' range of run ids as constants, so only their months' partitions are read.
 * Every row is written once more, while the tables are locked: at 30M results here, 408 s
 * (13.6 s per million results) and 530 bytes of WAL per result (`SCALE_MIGRATION=1
 * SCALE_RESULTS=30000000 node bench/scale.mjs`).
 */
export class PartitionResultsByRunMonth1795880000000 implements MigrationInterface {
  name = 'PartitionResultsByRunMonth1795880000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    for (const { table } of PARTITIONED_TABLES) {
      await queryRunner.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    }
    await dropLinks(queryRunner);
    await queryRunner.query(`DROP INDEX "IDX_test_result_run_created"`);
    await queryRunner.query(`DROP INDEX "IDX_test_result_run_case"`);
    await queryRunner.query(`DROP INDEX "IDX_test_result_run_signature"`);
    await queryRunner.query(`DROP INDEX "IDX_test_run_case_case"`);
    await queryRunner.query(
      `ALTER TABLE "test_run_case" DROP CONSTRAINT "PK_a37c55d7243f90f193efeb29135"`,
    );
    for (const { table } of PARTITIONED_TABLES) {
      await queryRunner.query(`ALTER TABLE "${table}" RENAME TO "${table}_unpartitioned"`);
      await queryRunner.query(
        `CREATE TABLE "${table}" (LIKE "${table}_unpartitioned" INCLUDING DEFAULTS)
         PARTITION BY RANGE ("test_run_id")`,
      );
    }
    // The sequence of `seq` belongs to the column it numbers, which is now the new table's.
    await queryRunner.query(`ALTER SEQUENCE "test_result_seq_seq" OWNED BY "test_result"."seq"`);

    for (const month of await monthsToCreate(queryRunner)) {
      for (const { table, options } of PARTITIONED_TABLES) {
        await queryRunner.query(
          `CREATE TABLE "${partitionName(table, month)}" PARTITION OF "${table}"
           FOR VALUES FROM ('${month.from}') TO ('${month.to}') ${options}`,
        );
      }
    }
    for (const { table, options } of PARTITIONED_TABLES) {
      await queryRunner.query(
        `CREATE TABLE "${defaultPartition(table)}" PARTITION OF "${table}" DEFAULT ${options}`,
      );
    }

    await queryRunner.query(
      `INSERT INTO "test_run_case" SELECT * FROM "test_run_case_unpartitioned"
       ORDER BY test_run_id, test_case_id, configuration`,
    );
    await queryRunner.query(
      `INSERT INTO "test_result" SELECT * FROM "test_result_unpartitioned" ORDER BY test_run_id, id`,
    );
    await queryRunner.query(`DROP TABLE "test_result_unpartitioned"`);
    await queryRunner.query(`DROP TABLE "test_run_case_unpartitioned"`);

    await createKeys(
      queryRunner,
      `"PK_c14cbca362ac275745733c5c1d3" PRIMARY KEY ("id", "test_run_id")`,
    );
    await createLinks(queryRunner);
    await queryRunner.query(`ANALYZE "test_result"`);
    await queryRunner.query(`ANALYZE "test_run_case"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropLinks(queryRunner);
    for (const { table, options } of PARTITIONED_TABLES) {
      await queryRunner.query(`ALTER TABLE "${table}" RENAME TO "${table}_partitioned"`);
      await queryRunner.query(
        `CREATE TABLE "${table}" (LIKE "${table}_partitioned" INCLUDING DEFAULTS) ${options}`,
      );
      await queryRunner.query(`INSERT INTO "${table}" SELECT * FROM "${table}_partitioned"`);
    }
    await queryRunner.query(`ALTER SEQUENCE "test_result_seq_seq" OWNED BY "test_result"."seq"`);
    for (const { table } of PARTITIONED_TABLES) {
      await queryRunner.query(`DROP TABLE "${table}_partitioned"`);
    }
    await createKeys(queryRunner, `"PK_95770fb76248f4c3def5de11a72" PRIMARY KEY ("id")`);
    await createLinks(queryRunner);
  }
}

/**
 * The keys and indexes of both tables, built once their rows are in (one sort each): the same
 * in both forms but for `test_result`'s primary key (`resultKey`, its constraint).
 */
async function createKeys(queryRunner: QueryRunner, resultKey: string): Promise<void> {
  for (const statement of [
    `ALTER TABLE "test_result" ADD CONSTRAINT ${resultKey}`,
    `CREATE INDEX "IDX_test_result_run_created" ON "test_result" ("test_run_id", "created_at", "id")`,
    `CREATE INDEX "IDX_test_result_run_case" ON "test_result" ("test_run_id", "test_case_id")`,
    `CREATE INDEX "IDX_test_result_run_signature" ON "test_result" ("test_run_id", "signature", "test_case_id", "configuration", "id") WHERE "signature" IS NOT NULL`,
    `ALTER TABLE "test_run_case" ADD CONSTRAINT "PK_a37c55d7243f90f193efeb29135" PRIMARY KEY ("test_run_id", "test_case_id", "configuration")`,
    `CREATE INDEX "IDX_test_run_case_case" ON "test_run_case" ("test_case_id")`,
  ]) {
    await queryRunner.query(statement);
  }
}

/**
 * Every month from the first UUIDv7 run's (not before 2020) to `MONTHS_AHEAD` after now's, and
 * the last run's if it is later (within a year). Other runs' rows go to the default partition.
 */
async function monthsToCreate(queryRunner: QueryRunner): Promise<RunMonth[]> {
  const [bounds]: { first: string | null; last: string | null }[] = await queryRunner.query(
    `SELECT min(id::text COLLATE "C") AS first, max(id::text COLLATE "C") AS last FROM test_run
     WHERE substr(id::text, 15, 1) = '7'
       AND id >= '016f5e66-e800-0000-0000-000000000000'`, // 2020-01-01
  );
  const now = Date.now();
  let last = runMonthOf(now);
  for (let i = 0; i < MONTHS_AHEAD; i++) last = monthAfter(last);
  const lastRun = bounds.last === null ? null : uuid7Time(bounds.last);
  if (lastRun !== null && lastRun > last.end.getTime() && lastRun < now + 366 * 86_400_000) {
    last = runMonthOf(lastRun);
  }
  const firstRun = bounds.first === null ? null : uuid7Time(bounds.first);
  let month = runMonthOf(firstRun !== null && firstRun < now ? firstRun : now);
  const months = [month];
  while (month.suffix !== last.suffix) {
    month = monthAfter(month);
    months.push(month);
  }
  return months;
}

/**
 * The reference triggers of `test_run_case` and `test_result` (`ReferencesCheckedPerStatement`,
 * keyed by slot since `ResultSlotsAndAttempts`), on the partitioned tables. A statement's rows
 * name a range of runs; its look-ups and deletes name that range as constants, so the planner
 * reads only the partitions of those runs' months (and the default one).
 */
async function createLinks(queryRunner: QueryRunner): Promise<void> {
  const slot = ['test_run_id', 'test_case_id', 'configuration'];
  const on = (left: string, right: string) =>
    slot.map((c) => `${left}.${c} = ${right}.${c}`).join(' AND ');
  await queryRunner.query(`
    CREATE OR REPLACE FUNCTION test_result_run_case_check() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        low uuid;
        high uuid;
        missing boolean;
    BEGIN
        ${rangeOf('new_rows', 'test_run_id')}
        EXECUTE format($q$
            SELECT EXISTS (
            SELECT 1
              FROM (SELECT DISTINCT ${slot.map((c) => `n.${c}`).join(', ')} FROM new_rows n) n
              LEFT JOIN LATERAL (
                   SELECT true AS found FROM "test_run_case" p
                    WHERE ${on('p', 'n')} AND p.test_run_id BETWEEN %L AND %L
                      FOR KEY SHARE) p ON true
             WHERE p.found IS NULL)$q$, low, high) INTO missing;
        IF missing THEN
            RAISE EXCEPTION 'insert on table "%" violates its foreign key to "%"', TG_TABLE_NAME, 'test_run_case'
                USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NULL;
    END $$`);
  await queryRunner.query(
    cascade('test_result_run_case_cascade', 'test_result', 'test_run_id', on('c', 'o')),
  );
  await queryRunner.query(
    cascade('test_run_case_run_cascade', 'test_run_case', 'id', 'c.test_run_id = o.id'),
  );
  await queryRunner.query(`CREATE TRIGGER test_result_run_case_cascade AFTER DELETE ON "test_run_case"
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION test_result_run_case_cascade()`);
  await queryRunner.query(`CREATE TRIGGER test_result_run_case_truncate BEFORE TRUNCATE ON "test_run_case"
        FOR EACH STATEMENT EXECUTE FUNCTION forbid_orphaning_truncate('test_result')`);
  // The insert checks, on each partitioned table and on each of its partitions, for the rows
  // copied straight into one.
  for (const { table } of PARTITIONED_TABLES) {
    const partitions: { name: string }[] = await queryRunner.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = $1::regclass`,
      [table],
    );
    for (const name of [table, ...partitions.map((p) => p.name)]) {
      for (const check of partitionChecks(table, name)) await queryRunner.query(check);
    }
  }
  for (const table of ['test_run_case', 'test_result']) {
    await queryRunner.query(`CREATE TRIGGER ${table}_key_fixed BEFORE UPDATE OF ${slot
      .map((c) => `"${c}"`)
      .join(', ')}
          ON "${table}" FOR EACH ROW
          WHEN (${slot.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
          EXECUTE FUNCTION forbid_key_change()`);
  }
}

/**
 * The statement that finds `rows`' range of run ids (their `column`) into `low` and `high`,
 * or returns when there are none.
 */
const rangeOf = (rows: string, column: string) => `
        -- uuid has no min(); its text in the C collation sorts as its bytes do.
        SELECT min(${column}::text COLLATE "C")::uuid, max(${column}::text COLLATE "C")::uuid
          INTO low, high FROM ${rows};
        IF low IS NULL THEN
            RETURN NULL;
        END IF;`;

/**
 * The function `name` that deletes the rows of `child` (`c`) whose parents (`old_rows o`,
 * their run id `parentRun`, linked by `link`) were deleted, reading only those runs' months.
 */
function cascade(name: string, child: string, parentRun: string, link: string): string {
  return `
    CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        low uuid;
        high uuid;
    BEGIN
        IF current_setting('transaction_isolation') <> 'read committed' THEN
            RAISE EXCEPTION 'deleting from "%" removes rows of "%": run it in READ COMMITTED', TG_TABLE_NAME, '${child}'
                USING ERRCODE = 'serialization_failure';
        END IF;
        ${rangeOf('old_rows', parentRun)}
        EXECUTE format($q$
            DELETE FROM "${child}" c USING old_rows o
             WHERE ${link} AND c.test_run_id BETWEEN %L AND %L$q$, low, high);
        RETURN NULL;
    END $$`;
}

/** The triggers `createLinks` makes, on either form of the tables. */
async function dropLinks(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`DROP TRIGGER test_result_run_case_check ON "test_result"`);
  await queryRunner.query(`DROP TRIGGER test_result_run_case_cascade ON "test_run_case"`);
  await queryRunner.query(`DROP TRIGGER test_result_run_case_truncate ON "test_run_case"`);
  await queryRunner.query(`DROP TRIGGER test_run_case_case_check ON "test_run_case"`);
  await queryRunner.query(`DROP TRIGGER test_run_case_run_check ON "test_run_case"`);
  await queryRunner.query(`DROP TRIGGER test_run_case_key_fixed ON "test_run_case"`);
  await queryRunner.query(`DROP TRIGGER test_result_key_fixed ON "test_result"`);
}
