import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOrganizationsAndApiKeys1795302842865 implements MigrationInterface {
  name = 'CreateOrganizationsAndApiKeys1795302842865';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."organization_plan" AS ENUM('basic', 'pro', 'enterprise')`,
    );
    await queryRunner.query(
      `CREATE TABLE "organization" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(255) NOT NULL, "plan" "public"."organization_plan" NOT NULL, "subscription_started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "monthly_call_limit" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_472c1f99a32def1b0abb219cd67" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_key" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "scopes" text array NOT NULL, "prefix" character varying(32) NOT NULL, "key_hash" character(64) NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b1bd840641b8acbaad89c3d8d11" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_key_hash" ON "api_key"  ("key_hash") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_api_key_organization" ON "api_key"  ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "organization_usage" ("organization_id" uuid NOT NULL, "period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "calls" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_759dbeca8d1d7b91b6d932e5edb" PRIMARY KEY ("organization_id", "period_start"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ADD CONSTRAINT "FK_f8bf75c998e043dc6ad022d28a8" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "organization_usage" ADD CONSTRAINT "FK_b2e47b9a379b4299051bd8f4469" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "organization_usage" DROP CONSTRAINT "FK_b2e47b9a379b4299051bd8f4469"`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" DROP CONSTRAINT "FK_f8bf75c998e043dc6ad022d28a8"`,
    );
    await queryRunner.query(`DROP TABLE "organization_usage"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_api_key_organization"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_api_key_hash"`);
    await queryRunner.query(`DROP TABLE "api_key"`);
    await queryRunner.query(`DROP TABLE "organization"`);
    await queryRunner.query(`DROP TYPE "public"."organization_plan"`);
  }
}
