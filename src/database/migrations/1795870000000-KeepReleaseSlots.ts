import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `release_slot` (issue 29): each release's slots with their latest current result across
 * the release's runs, which the writers of results keep from now on, so that a release's
 * progress counts its slots instead of reading and grouping every row of its runs. Filled
 * here from the current results of every run that has a release (the statement
 * `releaseSlots.backfill`, as it is now, over every release): one pass over those runs' rows
 * in `test_run_case`, sorted by slot.
 */
export class KeepReleaseSlots1795870000000 implements MigrationInterface {
  name = 'KeepReleaseSlots1795870000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "release_slot" ("organization_id" uuid NOT NULL, "release_id" uuid NOT NULL, "test_case_id" uuid NOT NULL, "configuration" character varying(100) NOT NULL DEFAULT '', "test_run_id" uuid NOT NULL, "result_id" uuid NOT NULL, "status" "public"."result_status" NOT NULL, "result_created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_80c95781fce27d3672b4dad76fa" PRIMARY KEY ("organization_id", "release_id", "test_case_id", "configuration"))`,
    );
    // Each result written into a release's run rewrites its slot's row, whose key does not
    // change: with half of each page free the new version fits beside the old (a HOT update,
    // no index entry), as `case_outcomes` does.
    await queryRunner.query(`ALTER TABLE "release_slot" SET (fillfactor = 50)`);
    await queryRunner.query(
      `INSERT INTO release_slot (organization_id, release_id, test_case_id, configuration, test_run_id, result_id, status, result_created_at)
       SELECT DISTINCT ON (run.release_id, c.test_case_id, c.configuration)
              run.organization_id, run.release_id, c.test_case_id, c.configuration,
              c.test_run_id, c.result_id, c.status, c.result_created_at
         FROM test_run run
         JOIN test_run_case c ON c.test_run_id = run.id
        WHERE run.release_id IS NOT NULL
        ORDER BY run.release_id, c.test_case_id, c.configuration, c.result_created_at DESC, c.result_id DESC`,
    );
    // Built once the rows are in (one sort instead of an insertion per row).
    await queryRunner.query(
      `CREATE INDEX "IDX_release_slot_status" ON "release_slot"  ("organization_id", "release_id", "status") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "release_slot"`);
  }
}
