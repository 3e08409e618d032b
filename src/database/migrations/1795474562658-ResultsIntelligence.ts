import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Results intelligence (CONTRACT §12): a result's failure detail (`failure_type`,
 * `stack_trace`, `signature`), the quality gate's project settings, and quarantine entries.
 * The new result columns are nullable without a default, so adding them rewrites nothing.
 */
export class ResultsIntelligence1795474562658 implements MigrationInterface {
  name = 'ResultsIntelligence1795474562658';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "quarantine_entry" ("test_case_id" uuid NOT NULL, "project_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "reason" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2adf3f61054e75b081164e785a7" PRIMARY KEY ("test_case_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_quarantine_entry_project_created" ON "quarantine_entry"  ("project_id", "created_at", "test_case_id") `,
    );
    await queryRunner.query(`ALTER TABLE "project" ADD "gate_min_pass_rate" double precision`);
    await queryRunner.query(
      `ALTER TABLE "project" ADD "gate_forbid_missing_tests" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`ALTER TABLE "test_result" ADD "failure_type" text`);
    await queryRunner.query(`ALTER TABLE "test_result" ADD "stack_trace" text`);
    await queryRunner.query(`ALTER TABLE "test_result" ADD "signature" character varying(16)`);
    await queryRunner.query(
      `ALTER TABLE "quarantine_entry" ADD CONSTRAINT "FK_2adf3f61054e75b081164e785a7" FOREIGN KEY ("test_case_id") REFERENCES "test_case"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "quarantine_entry" ADD CONSTRAINT "FK_3ff6d47761679b7a39d6775b7e9" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "quarantine_entry" DROP CONSTRAINT "FK_3ff6d47761679b7a39d6775b7e9"`,
    );
    await queryRunner.query(
      `ALTER TABLE "quarantine_entry" DROP CONSTRAINT "FK_2adf3f61054e75b081164e785a7"`,
    );
    await queryRunner.query(`ALTER TABLE "test_result" DROP COLUMN "signature"`);
    await queryRunner.query(`ALTER TABLE "test_result" DROP COLUMN "stack_trace"`);
    await queryRunner.query(`ALTER TABLE "test_result" DROP COLUMN "failure_type"`);
    await queryRunner.query(`ALTER TABLE "project" DROP COLUMN "gate_forbid_missing_tests"`);
    await queryRunner.query(`ALTER TABLE "project" DROP COLUMN "gate_min_pass_rate"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_quarantine_entry_project_created"`);
    await queryRunner.query(`DROP TABLE "quarantine_entry"`);
  }
}
