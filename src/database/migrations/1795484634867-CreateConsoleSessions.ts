import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateConsoleSessions1795484634867 implements MigrationInterface {
  name = 'CreateConsoleSessions1795484634867';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "console_session" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "secret_hash" character(64) NOT NULL, "method" character varying(16) NOT NULL, "subject" character varying(255) NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_de017bbd4b96ce481ef2729ad1a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_console_session_secret_hash" ON "console_session"  ("secret_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_console_session_expires_at" ON "console_session"  ("expires_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_console_session_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_console_session_secret_hash"`);
    await queryRunner.query(`DROP TABLE "console_session"`);
  }
}
