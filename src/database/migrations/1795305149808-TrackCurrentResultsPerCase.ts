import { MigrationInterface, QueryRunner } from 'typeorm';

export class TrackCurrentResultsPerCase1795305149808 implements MigrationInterface {
  name = 'TrackCurrentResultsPerCase1795305149808';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_test_result_current"`);
    await queryRunner.query(
      `CREATE TABLE "test_run_case" ("test_run_id" uuid NOT NULL, "test_case_id" uuid NOT NULL, "result_id" uuid NOT NULL, "status" "public"."result_status" NOT NULL, "flaky" boolean NOT NULL, CONSTRAINT "PK_5cd9eb141945ded99ae22a16dc1" PRIMARY KEY ("test_run_id", "test_case_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_run_case_case" ON "test_run_case"  ("test_case_id") `,
    );
    // Written by hand: carry every run's current results over before the flag goes.
    await queryRunner.query(`INSERT INTO "test_run_case" ("test_run_id", "test_case_id", "result_id", "status", "flaky")
            SELECT "test_run_id", "test_case_id", "id", "status", "flaky" FROM "test_result" WHERE "is_current"`);
    await queryRunner.query(`ALTER TABLE "test_result" DROP COLUMN "is_current"`);
    await queryRunner.query(
      `ALTER TABLE "test_run_case" ADD CONSTRAINT "FK_5b6e8857312d467aefcdafc01d6" FOREIGN KEY ("test_run_id") REFERENCES "test_run"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run_case" ADD CONSTRAINT "FK_d50ea950193e2aaeb9ffce5dce1" FOREIGN KEY ("test_case_id") REFERENCES "test_case"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "test_run_case" DROP CONSTRAINT "FK_d50ea950193e2aaeb9ffce5dce1"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run_case" DROP CONSTRAINT "FK_5b6e8857312d467aefcdafc01d6"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" ADD "is_current" boolean NOT NULL DEFAULT true`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_test_run_case_case"`);
    await queryRunner.query(`DROP TABLE "test_run_case"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_test_result_current" ON "test_result" USING btree ("test_run_id", "test_case_id") WHERE is_current`,
    );
  }
}
