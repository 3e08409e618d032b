import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAttachments1795830000000 implements MigrationInterface {
  name = 'CreateAttachments1795830000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."attachment_status" AS ENUM('pending', 'stored')`,
    );
    await queryRunner.query(
      `CREATE TABLE "attachment" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "organization_id" uuid NOT NULL, "test_run_id" uuid NOT NULL, "result_id" uuid NOT NULL, "test_case_id" uuid NOT NULL, "configuration" character varying(100) NOT NULL DEFAULT '', "name" character varying(255) NOT NULL, "content_type" character varying(255) NOT NULL, "size" bigint NOT NULL, "sha256" character(64) NOT NULL, "status" "public"."attachment_status" NOT NULL, CONSTRAINT "PK_d2a80c3a8d467f08a750ac4b420" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_attachment_created" ON "attachment"  ("created_at") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_attachment_run" ON "attachment"  ("test_run_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_attachment_result" ON "attachment"  ("result_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_attachment_content" ON "attachment"  ("organization_id", "sha256", "size") `,
    );
    await queryRunner.query(
      `CREATE TABLE "url_signing_key" ("name" character varying(64) NOT NULL, "secret" bytea NOT NULL, CONSTRAINT "PK_628faaa1093db17344cc6114091" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "attachment" ADD CONSTRAINT "FK_beab0fcf2dc8517c790d673db19" FOREIGN KEY ("test_run_id") REFERENCES "test_run"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "attachment" DROP CONSTRAINT "FK_beab0fcf2dc8517c790d673db19"`,
    );
    await queryRunner.query(`DROP TABLE "url_signing_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_attachment_content"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_attachment_result"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_attachment_run"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_attachment_created"`);
    await queryRunner.query(`DROP TABLE "attachment"`);
    await queryRunner.query(`DROP TYPE "public"."attachment_status"`);
  }
}
