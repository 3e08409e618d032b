import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The project overview's indexes (issue 31): a project's runs by name, then age (the latest
 * run of each name, found one index probe per name, and a name's trend), and a run's failing
 * results by signature with their slot and id (the causes that recur across runs, read from the
 * index alone): partial, so it holds only failed and blocked results (about 1 % of them) and
 * costs an insert nothing else.
 */
export class OverviewIndexes1795850000000 implements MigrationInterface {
  name = 'OverviewIndexes1795850000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_test_run_project_name_created" ON "test_run" ("project_id", "name", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_result_run_signature" ON "test_result" ("test_run_id", "signature", "test_case_id", "configuration", "id") WHERE "signature" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_test_result_run_signature"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_run_project_name_created"`);
  }
}
