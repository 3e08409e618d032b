import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateProjectsReleasesBuildsIdempotency1795303622861 implements MigrationInterface {
  name = 'CreateProjectsReleasesBuildsIdempotency1795303622861';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "project" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "key" character varying(32) NOT NULL, "description" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4d68b1358bb5b766d3e78f32f57" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_project_organization_created" ON "project"  ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_project_organization_key" ON "project"  ("organization_id", "key") `,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."release_status" AS ENUM('planned', 'in_progress', 'completed')`,
    );
    await queryRunner.query(
      `CREATE TABLE "release" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "project_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "version" character varying(255), "status" "public"."release_status" NOT NULL DEFAULT 'planned', "target_date" date, "released_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1a2253436964eea9c558f9464f4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_release_organization" ON "release"  ("organization_id", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_release_project_created" ON "release"  ("project_id", "created_at") `,
    );
    await queryRunner.query(`CREATE TYPE "public"."build_status" AS ENUM('planned', 'assigned')`);
    await queryRunner.query(`CREATE TYPE "public"."source" AS ENUM('api', 'ui')`);
    await queryRunner.query(
      `CREATE TABLE "build" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "project_id" uuid, "release_id" uuid, "name" character varying(255) NOT NULL, "build_number" character varying(255), "commit_sha" character varying(64), "branch" character varying(255), "repo_url" character varying(2048), "status" "public"."build_status" NOT NULL, "source" "public"."source" NOT NULL, "queue_position" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_build_queue_position" UNIQUE ("organization_id", "queue_position") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_5625549365ffbf46dd1c7ff342d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_project" ON "build"  ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_release" ON "build"  ("release_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_organization_number" ON "build"  ("organization_id", "build_number") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_organization_commit" ON "build"  ("organization_id", "commit_sha") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_organization_branch" ON "build"  ("organization_id", "branch", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_build_organization_created" ON "build"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "idempotency_record" ("owner" character varying(64) NOT NULL, "key" character varying(255) NOT NULL, "fingerprint" character(64) NOT NULL, "response_status" integer, "response_body" jsonb, "locked_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9fbc1862b4890f2cef260b413cf" PRIMARY KEY ("owner", "key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_idempotency_record_created" ON "idempotency_record"  ("created_at") `,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."test_case_priority" AS ENUM('low', 'medium', 'high', 'critical')`,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."test_case_status" AS ENUM('active', 'deprecated')`,
    );
    await queryRunner.query(
      `CREATE TABLE "test_case" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "project_id" uuid NOT NULL, "title" character varying(1000) NOT NULL, "automation_id" character varying(1000), "section" character varying(1000), "priority" "public"."test_case_priority" NOT NULL DEFAULT 'medium', "status" "public"."test_case_status" NOT NULL DEFAULT 'active', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ddd6142bdceedfe5161a0406984" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_case_project_updated" ON "test_case"  ("project_id", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_test_case_project_created" ON "test_case"  ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_test_case_project_automation_id" ON "test_case"  ("project_id", "automation_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "project" ADD CONSTRAINT "FK_e4616ee32e66481cf9b9f1a6466" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "release" ADD CONSTRAINT "FK_26aa91a0fafe22a6881b172d9a7" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "build" ADD CONSTRAINT "FK_eff2a6b992b43d6eb805428fc9e" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "build" ADD CONSTRAINT "FK_6e92fc3c657440ebee29fb66f8c" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "build" ADD CONSTRAINT "FK_442cf997b56a42b746b8cd9e13d" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "test_case" ADD CONSTRAINT "FK_2ae32322d6d2b0a8021856badc8" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "test_case" DROP CONSTRAINT "FK_2ae32322d6d2b0a8021856badc8"`,
    );
    await queryRunner.query(`ALTER TABLE "build" DROP CONSTRAINT "FK_442cf997b56a42b746b8cd9e13d"`);
    await queryRunner.query(`ALTER TABLE "build" DROP CONSTRAINT "FK_6e92fc3c657440ebee29fb66f8c"`);
    await queryRunner.query(`ALTER TABLE "build" DROP CONSTRAINT "FK_eff2a6b992b43d6eb805428fc9e"`);
    await queryRunner.query(
      `ALTER TABLE "release" DROP CONSTRAINT "FK_26aa91a0fafe22a6881b172d9a7"`,
    );
    await queryRunner.query(
      `ALTER TABLE "project" DROP CONSTRAINT "FK_e4616ee32e66481cf9b9f1a6466"`,
    );
    await queryRunner.query(`DROP INDEX "public"."UQ_test_case_project_automation_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_case_project_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_test_case_project_updated"`);
    await queryRunner.query(`DROP TABLE "test_case"`);
    await queryRunner.query(`DROP TYPE "public"."test_case_status"`);
    await queryRunner.query(`DROP TYPE "public"."test_case_priority"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_idempotency_record_created"`);
    await queryRunner.query(`DROP TABLE "idempotency_record"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_organization_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_organization_branch"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_organization_commit"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_organization_number"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_release"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_build_project"`);
    await queryRunner.query(`DROP TABLE "build"`);
    await queryRunner.query(`DROP TYPE "public"."source"`);
    await queryRunner.query(`DROP TYPE "public"."build_status"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_release_project_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_release_organization"`);
    await queryRunner.query(`DROP TABLE "release"`);
    await queryRunner.query(`DROP TYPE "public"."release_status"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_project_organization_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_project_organization_created"`);
    await queryRunner.query(`DROP TABLE "project"`);
  }
}
