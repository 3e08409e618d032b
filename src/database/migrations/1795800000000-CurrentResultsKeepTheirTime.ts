import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each slot's current result in a run (`test_run_case`) keeps when that result was stored, so
 * a release's progress reads its runs' rows alone instead of looking up each result for its
 * time (issue 29). Existing rows take it from their result: one UPDATE of every row, joined
 * to its result by key, which leaves a dead version of each row for VACUUM.
 */
export class CurrentResultsKeepTheirTime1795800000000 implements MigrationInterface {
  name = 'CurrentResultsKeepTheirTime1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "test_run_case" ADD "result_created_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `UPDATE "test_run_case" c SET "result_created_at" = r."created_at"
         FROM "test_result" r WHERE r."id" = c."result_id"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run_case" ALTER COLUMN "result_created_at" SET NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "test_run_case" DROP COLUMN "result_created_at"`);
  }
}
