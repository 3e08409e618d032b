import { MigrationInterface, QueryRunner } from 'typeorm';

export class MillisecondTimestamps1795303906157 implements MigrationInterface {
  name = 'MillisecondTimestamps1795303906157';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "organization" ALTER COLUMN "subscription_started_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "organization" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "organization" ALTER COLUMN "updated_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_api_key_organization"`);
    await queryRunner.query(
      `ALTER TABLE "api_key" ALTER COLUMN "last_used_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ALTER COLUMN "deleted_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_project_organization_created"`);
    await queryRunner.query(
      `ALTER TABLE "project" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "project" ALTER COLUMN "updated_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_release_project_created"`);
    await queryRunner.query(
      `ALTER TABLE "release" ALTER COLUMN "released_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "release" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "release" ALTER COLUMN "updated_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_build_project"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_release"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_organization_branch"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_organization_created"`);
    await queryRunner.query(
      `ALTER TABLE "build" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "build" ALTER COLUMN "updated_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_record" ALTER COLUMN "locked_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_record" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "organization_usage" ALTER COLUMN "period_start" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_test_case_project_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_case_project_updated"`);
    await queryRunner.query(
      `ALTER TABLE "test_case" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_case" ALTER COLUMN "updated_at" TYPE TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_api_key_organization" ON "api_key"  ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_project_organization_created" ON "project"  ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_release_project_created" ON "release"  ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_project" ON "build"  ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_release" ON "build"  ("release_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_organization_branch" ON "build"  ("organization_id", "branch", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_organization_created" ON "build"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_case_project_updated" ON "test_case"  ("project_id", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_case_project_created" ON "test_case"  ("project_id", "created_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_test_case_project_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_case_project_updated"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_organization_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_organization_branch"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_release"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_project"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_release_project_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_project_organization_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_api_key_organization"`);
    await queryRunner.query(
      `ALTER TABLE "test_case" ALTER COLUMN "updated_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_case" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_case_project_updated" ON "test_case" USING btree ("project_id", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_case_project_created" ON "test_case" USING btree ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "organization_usage" ALTER COLUMN "period_start" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_record" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_record" ALTER COLUMN "locked_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "build" ALTER COLUMN "updated_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "build" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_organization_created" ON "build" USING btree ("id", "organization_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_organization_branch" ON "build" USING btree ("organization_id", "branch", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_release" ON "build" USING btree ("release_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_project" ON "build" USING btree ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "release" ALTER COLUMN "updated_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "release" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "release" ALTER COLUMN "released_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_release_project_created" ON "release" USING btree ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "project" ALTER COLUMN "updated_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "project" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_project_organization_created" ON "project" USING btree ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ALTER COLUMN "deleted_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ALTER COLUMN "last_used_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_api_key_organization" ON "api_key" USING btree ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "organization" ALTER COLUMN "updated_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "organization" ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "organization" ALTER COLUMN "subscription_started_at" TYPE TIMESTAMP(6) WITH TIME ZONE`,
    );
  }
}
