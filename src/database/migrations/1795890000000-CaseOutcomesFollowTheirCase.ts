import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `case_outcomes` loses its foreign key to `test_case`; a case's row still goes with its case.
 *
 * The flaky list's summary is written only from a run's current results (`test_run_case`, in
 * the same statement, `flakiness/case-outcomes.repository.ts`), whose rows are checked against
 * their case when they are written (`ReferencesCheckedPerStatement`) and deleted with it: a
 * row here never names a case that was not there. The foreign key checked it again for every
 * new row, with a lookup and a row lock on the case: when a run whose 20,000 cases are new is
 * submitted, 80 of the 220 ms its statement took here (`bench/scale.mjs`, "move run #1"), the
 * rest being the inserts themselves. What the key also did is kept by triggers, as for the
 * other links: deleting cases deletes their rows in one statement (READ COMMITTED only), and
 * `test_case` cannot be truncated while rows here name its cases.
 *
 * Written by hand: TypeORM neither generates nor compares triggers.
 */
export class CaseOutcomesFollowTheirCase1795890000000 implements MigrationInterface {
  name = 'CaseOutcomesFollowTheirCase1795890000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" DROP CONSTRAINT "FK_e4ca233e7ba3a81f9752031a729"`,
    );
    await queryRunner.query(`
            CREATE FUNCTION case_outcomes_case_cascade() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF current_setting('transaction_isolation') <> 'read committed' THEN
                    RAISE EXCEPTION 'deleting from "%" removes rows of "%": run it in READ COMMITTED', TG_TABLE_NAME, 'case_outcomes'
                        USING ERRCODE = 'serialization_failure';
                END IF;
                DELETE FROM "case_outcomes" c USING old_rows o WHERE c.test_case_id = o.id;
                RETURN NULL;
            END $$`);
    await queryRunner.query(`CREATE TRIGGER case_outcomes_case_cascade AFTER DELETE ON "test_case"
            REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION case_outcomes_case_cascade()`);
    await queryRunner.query(`CREATE TRIGGER case_outcomes_case_truncate BEFORE TRUNCATE ON "test_case"
            FOR EACH STATEMENT EXECUTE FUNCTION forbid_orphaning_truncate('case_outcomes')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER case_outcomes_case_truncate ON "test_case"`);
    await queryRunner.query(`DROP TRIGGER case_outcomes_case_cascade ON "test_case"`);
    await queryRunner.query(`DROP FUNCTION case_outcomes_case_cascade()`);
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" ADD CONSTRAINT "FK_e4ca233e7ba3a81f9752031a729" FOREIGN KEY ("test_case_id") REFERENCES "test_case"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
