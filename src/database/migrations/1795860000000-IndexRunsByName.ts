import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's runs list filtered to one run name (issue 31: "16 identical nightly e2e rows"):
 * a project's runs of that name, newest first, read by this index and stopped at the page's
 * end, however many other runs the project has.
 */
export class IndexRunsByName1795860000000 implements MigrationInterface {
  name = 'IndexRunsByName1795860000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_test_run_project_name_created" ON "test_run" ("project_id", "name", "created_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_test_run_project_name_created"`);
  }
}
