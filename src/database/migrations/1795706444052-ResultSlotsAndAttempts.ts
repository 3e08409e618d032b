import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Configurations and attempts (CONTRACT §13). A result names the configuration it ran in, and
 * a run keeps one current result per slot, a (test case, configuration) pair, so
 * `test_run_case` and the flaky list's `case_outcomes` take the configuration into their keys.
 * The slot without a configuration has '' (a configuration is never blank): keys need no NULL,
 * and every existing row becomes that slot, as it was. A result also keeps its earlier
 * attempts (`attempts`, null for none).
 *
 * A result's link to its slot (`test_result_run_case`, checked per statement by the triggers of
 * `ReferencesCheckedPerStatement`) now names the whole slot, and the slot's key stays fixed.
 * Adding a column with a constant default rewrites no table; the new primary keys are built
 * once (a few seconds per million rows here).
 */
export class ResultSlotsAndAttempts1795706444052 implements MigrationInterface {
  name = 'ResultSlotsAndAttempts1795706444052';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" ADD "configuration" character varying(100) NOT NULL DEFAULT ''`,
    );
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" DROP CONSTRAINT "PK_e4ca233e7ba3a81f9752031a729"`,
    );
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" ADD CONSTRAINT "PK_1c5fc88840f61968a8a1b862bc1" PRIMARY KEY ("test_case_id", "configuration")`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" ADD "configuration" character varying(100) NOT NULL DEFAULT ''`,
    );
    await queryRunner.query(`ALTER TABLE "test_result" ADD "attempts" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "test_run_case" ADD "configuration" character varying(100) NOT NULL DEFAULT ''`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run_case" DROP CONSTRAINT "PK_5cd9eb141945ded99ae22a16dc1"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run_case" ADD CONSTRAINT "PK_a37c55d7243f90f193efeb29135" PRIMARY KEY ("test_run_id", "test_case_id", "configuration")`,
    );
    await linkResultsToSlots(queryRunner, ['test_run_id', 'test_case_id', 'configuration']);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Results in a configuration cannot go back without losing them: refuse instead.
    await queryRunner.query(`
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM "test_result" WHERE configuration <> '') THEN
          RAISE EXCEPTION 'results with a configuration exist: reverting would lose them';
        END IF;
      END $$`);
    await linkResultsToSlots(queryRunner, ['test_run_id', 'test_case_id']);
    await queryRunner.query(
      `ALTER TABLE "test_run_case" DROP CONSTRAINT "PK_a37c55d7243f90f193efeb29135"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run_case" ADD CONSTRAINT "PK_5cd9eb141945ded99ae22a16dc1" PRIMARY KEY ("test_run_id", "test_case_id")`,
    );
    await queryRunner.query(`ALTER TABLE "test_run_case" DROP COLUMN "configuration"`);
    await queryRunner.query(`ALTER TABLE "test_result" DROP COLUMN "attempts"`);
    await queryRunner.query(`ALTER TABLE "test_result" DROP COLUMN "configuration"`);
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" DROP CONSTRAINT "PK_1c5fc88840f61968a8a1b862bc1"`,
    );
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" ADD CONSTRAINT "PK_e4ca233e7ba3a81f9752031a729" PRIMARY KEY ("test_case_id")`,
    );
    await queryRunner.query(`ALTER TABLE "case_outcomes" DROP COLUMN "configuration"`);
  }
}

/**
 * The per-statement check of a result's link to its current-result row, its cascade, and the
 * fixed keys of both tables, on `key` (as `ReferencesCheckedPerStatement` wrote them).
 */
async function linkResultsToSlots(queryRunner: QueryRunner, key: string[]): Promise<void> {
  const on = (left: string, right: string) =>
    key.map((c) => `${left}.${c} = ${right}.${c}`).join(' AND ');
  await queryRunner.query(`
    CREATE OR REPLACE FUNCTION test_result_run_case_check() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (
            SELECT 1
              FROM (SELECT DISTINCT ${key.map((c) => `n.${c}`).join(', ')} FROM new_rows n) n
              LEFT JOIN LATERAL (
                   SELECT true AS found FROM "test_run_case" p
                    WHERE ${on('p', 'n')}
                      FOR KEY SHARE) p ON true
             WHERE p.found IS NULL) THEN
            RAISE EXCEPTION 'insert on table "%" violates its foreign key to "%"', TG_TABLE_NAME, 'test_run_case'
                USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NULL;
    END $$`);
  await queryRunner.query(`
    CREATE OR REPLACE FUNCTION test_result_run_case_cascade() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('transaction_isolation') <> 'read committed' THEN
            RAISE EXCEPTION 'deleting from "%" removes rows of "%": run it in READ COMMITTED', TG_TABLE_NAME, 'test_result'
                USING ERRCODE = 'serialization_failure';
        END IF;
        DELETE FROM "test_result" c USING old_rows o
         WHERE ${on('c', 'o')};
        RETURN NULL;
    END $$`);
  for (const table of ['test_run_case', 'test_result']) {
    await queryRunner.query(`DROP TRIGGER ${table}_key_fixed ON "${table}"`);
    await queryRunner.query(`CREATE TRIGGER ${table}_key_fixed BEFORE UPDATE OF ${key
      .map((c) => `"${c}"`)
      .join(', ')}
          ON "${table}" FOR EACH ROW
          WHEN (${key.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
          EXECUTE FUNCTION forbid_key_change()`);
  }
}
