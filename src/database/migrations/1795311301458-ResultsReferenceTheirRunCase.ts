import { MigrationInterface, QueryRunner } from 'typeorm';

export class ResultsReferenceTheirRunCase1795311301458 implements MigrationInterface {
  name = 'ResultsReferenceTheirRunCase1795311301458';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Room on each page so that a case's new current result is a HOT update.
    await queryRunner.query(`ALTER TABLE "test_run_case" SET (fillfactor = 70)`);
    await queryRunner.query(
      `ALTER TABLE "test_result" DROP CONSTRAINT "FK_0c420f23d1caea426fce362f64e"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" DROP CONSTRAINT "FK_7a7c1c7e1c8ba4d7ad87ae2acf0"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_test_result_case"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_test_result_run_case" ON "test_result"  ("test_run_id", "test_case_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" ADD CONSTRAINT "FK_6bdc5b6c92109154a387433154b" FOREIGN KEY ("test_run_id", "test_case_id") REFERENCES "test_run_case"("test_run_id","test_case_id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "test_run_case" RESET (fillfactor)`);
    await queryRunner.query(
      `ALTER TABLE "test_result" DROP CONSTRAINT "FK_6bdc5b6c92109154a387433154b"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_test_result_run_case"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_test_result_case" ON "test_result" USING btree ("test_case_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" ADD CONSTRAINT "FK_7a7c1c7e1c8ba4d7ad87ae2acf0" FOREIGN KEY ("test_case_id") REFERENCES "test_case"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" ADD CONSTRAINT "FK_0c420f23d1caea426fce362f64e" FOREIGN KEY ("test_run_id") REFERENCES "test_run"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
