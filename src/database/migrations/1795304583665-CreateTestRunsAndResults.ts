import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTestRunsAndResults1795304583665 implements MigrationInterface {
  name = 'CreateTestRunsAndResults1795304583665';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."test_run_status" AS ENUM('in_progress', 'submitted', 'completed')`,
    );
    await queryRunner.query(
      `CREATE TABLE "test_run" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "project_id" uuid NOT NULL, "build_id" uuid, "release_id" uuid, "name" character varying(255) NOT NULL, "status" "public"."test_run_status" NOT NULL DEFAULT 'in_progress', "source" "public"."source" NOT NULL, "total" integer NOT NULL DEFAULT '0', "passed" integer NOT NULL DEFAULT '0', "failed" integer NOT NULL DEFAULT '0', "blocked" integer NOT NULL DEFAULT '0', "skipped" integer NOT NULL DEFAULT '0', "retest" integer NOT NULL DEFAULT '0', "untested" integer NOT NULL DEFAULT '0', "flaky" integer NOT NULL DEFAULT '0', "submitted_at" TIMESTAMP(3) WITH TIME ZONE, "completed_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_011c050f566e9db509a0fadb9b9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_test_run_release" ON "test_run"  ("release_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_test_run_build" ON "test_run"  ("build_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_test_run_project_created" ON "test_run"  ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_run_organization_created" ON "test_run"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."result_status" AS ENUM('passed', 'failed', 'blocked', 'skipped', 'retest', 'untested')`,
    );
    await queryRunner.query(
      `CREATE TABLE "test_result" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "test_run_id" uuid NOT NULL, "test_case_id" uuid NOT NULL, "status" "public"."result_status" NOT NULL, "duration_ms" integer, "message" text, "defects" text array NOT NULL DEFAULT '{}', "retries" integer NOT NULL DEFAULT '0', "flaky" boolean NOT NULL DEFAULT false, "is_current" boolean NOT NULL DEFAULT true, "executed_at" TIMESTAMP(3) WITH TIME ZONE, "seq" BIGSERIAL NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_95770fb76248f4c3def5de11a72" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_result_case" ON "test_result"  ("test_case_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_test_result_current" ON "test_result"  ("test_run_id", "test_case_id") WHERE "is_current"`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_result_run_created" ON "test_result"  ("test_run_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run" ADD CONSTRAINT "FK_0b9402b3f9dda75d666a9523a7b" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run" ADD CONSTRAINT "FK_dc47b24b5dcc6fd0548102fc902" FOREIGN KEY ("build_id") REFERENCES "build"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run" ADD CONSTRAINT "FK_55d31b12683f890c247e15ae409" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" ADD CONSTRAINT "FK_0c420f23d1caea426fce362f64e" FOREIGN KEY ("test_run_id") REFERENCES "test_run"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" ADD CONSTRAINT "FK_7a7c1c7e1c8ba4d7ad87ae2acf0" FOREIGN KEY ("test_case_id") REFERENCES "test_case"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "test_result" DROP CONSTRAINT "FK_7a7c1c7e1c8ba4d7ad87ae2acf0"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_result" DROP CONSTRAINT "FK_0c420f23d1caea426fce362f64e"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run" DROP CONSTRAINT "FK_55d31b12683f890c247e15ae409"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run" DROP CONSTRAINT "FK_dc47b24b5dcc6fd0548102fc902"`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_run" DROP CONSTRAINT "FK_0b9402b3f9dda75d666a9523a7b"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_test_result_run_created"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_test_result_current"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_result_case"`);
    await queryRunner.query(`DROP TABLE "test_result"`);
    await queryRunner.query(`DROP TYPE "public"."result_status"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_run_organization_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_run_project_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_run_build"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_run_release"`);
    await queryRunner.query(`DROP TABLE "test_run"`);
    await queryRunner.query(`DROP TYPE "public"."test_run_status"`);
  }
}
