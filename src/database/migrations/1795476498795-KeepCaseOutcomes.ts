import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The flaky list's summary (CONTRACT §12): each run's `position` among its project's runs in
 * creation order, the project's count of runs that numbers the next one, and `case_outcomes`,
 * one character per run for each case, which the result writers keep from now on. All three
 * are filled from the data there: positions by creation time (then id), and each case's
 * outcomes in its last 2,000 runs, from the current results of submitted and completed runs
 * (the statement `flakiness.backfillCaseOutcomes`, as it was then, over every project).
 */
export class KeepCaseOutcomes1795476498795 implements MigrationInterface {
  name = 'KeepCaseOutcomes1795476498795';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "case_outcomes" ("test_case_id" uuid NOT NULL, "project_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "base" integer NOT NULL DEFAULT '0', "outcomes" text NOT NULL, CONSTRAINT "PK_e4ca233e7ba3a81f9752031a729" PRIMARY KEY ("test_case_id"))`,
    );
    // A status change rewrites every row of the run's cases, each one character longer: with
    // half of each page free the new versions fit beside the old (HOT updates, no index
    // entries), which halves the time of a 20,000-case run's upsert.
    await queryRunner.query(`ALTER TABLE "case_outcomes" SET (fillfactor = 50)`);
    await queryRunner.query(
      `CREATE INDEX "IDX_case_outcomes_project" ON "case_outcomes"  ("project_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "project" ADD "runs_created" integer NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(`ALTER TABLE "test_run" ADD "position" integer`);
    await queryRunner.query(
      `UPDATE test_run r SET position = n.position
       FROM (SELECT id, row_number() OVER (PARTITION BY project_id ORDER BY created_at, id) AS position
             FROM test_run) n
       WHERE n.id = r.id`,
    );
    await queryRunner.query(
      `UPDATE project p SET runs_created = n.runs
       FROM (SELECT project_id, count(*)::int AS runs FROM test_run GROUP BY project_id) n
       WHERE n.project_id = p.id`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_test_run_project_position" ON "test_run"  ("project_id", "position") `,
    );
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" ADD CONSTRAINT "FK_e4ca233e7ba3a81f9752031a729" FOREIGN KEY ("test_case_id") REFERENCES "test_case"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `WITH slots AS (
         SELECT c.test_case_id, r.position,
                CASE WHEN c.status = 'failed' THEN 'F'
                     WHEN c.status = 'passed' AND c.flaky THEN 'R'
                     ELSE 'P' END AS outcome
         FROM test_run r
         JOIN test_run_case c ON c.test_run_id = r.id
         WHERE r.status IN ('submitted', 'completed') AND c.status IN ('passed', 'failed')
       ),
       spans AS (
         SELECT test_case_id, greatest(min(position) - 1, max(position) - 2000) AS base
         FROM slots
         GROUP BY test_case_id
       ),
       kept AS (
         SELECT s.test_case_id, spans.base, s.position, s.outcome,
                s.position - coalesce(lag(s.position) OVER (
                  PARTITION BY s.test_case_id ORDER BY s.position
                ), spans.base) - 1 AS gap
         FROM slots s
         JOIN spans ON spans.test_case_id = s.test_case_id
         WHERE s.position > spans.base
       )
       INSERT INTO case_outcomes (test_case_id, project_id, organization_id, base, outcomes)
       SELECT k.test_case_id, tc.project_id, tc.organization_id, k.base,
              string_agg(repeat('.', k.gap) || k.outcome, '' ORDER BY k.position)
       FROM kept k
       JOIN test_case tc ON tc.id = k.test_case_id
       GROUP BY k.test_case_id, tc.project_id, tc.organization_id, k.base`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "case_outcomes" DROP CONSTRAINT "FK_e4ca233e7ba3a81f9752031a729"`,
    );
    await queryRunner.query(`DROP INDEX "public"."UQ_test_run_project_position"`);
    await queryRunner.query(`ALTER TABLE "test_run" DROP COLUMN "position"`);
    await queryRunner.query(`ALTER TABLE "project" DROP COLUMN "runs_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_case_outcomes_project"`);
    await queryRunner.query(`DROP TABLE "case_outcomes"`);
  }
}
