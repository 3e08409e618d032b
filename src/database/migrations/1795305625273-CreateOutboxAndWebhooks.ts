import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOutboxAndWebhooks1795305625273 implements MigrationInterface {
  name = 'CreateOutboxAndWebhooks1795305625273';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "domain_event" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "type" character varying(64) NOT NULL, "data" jsonb NOT NULL, "relayed_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f901502d0301da69fb8cebbb8f2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_domain_event_unrelayed" ON "domain_event"  ("created_at") WHERE "relayed_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_subscription" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "events" text array NOT NULL, "description" character varying(1000), "secret" character varying(128) NOT NULL, "active" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_b52cb4811c5ada4f42896c37ba8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_subscription_organization" ON "webhook_subscription"  ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'succeeded', 'failed')`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_delivery" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "event_id" uuid NOT NULL, "event_type" character varying(64) NOT NULL, "status" "public"."webhook_delivery_status" NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "lease_until" TIMESTAMP(3) WITH TIME ZONE, "attempt_log" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b1ae290239a778f12399db91354" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_delivery_event" ON "webhook_delivery"  ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_delivery_due" ON "webhook_delivery"  ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_delivery_subscription" ON "webhook_delivery"  ("subscription_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_subscription" ADD CONSTRAINT "FK_d6ac76394d7dfbe461c8a19c53b" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_236a6a1218756223393d1fb5acc" FOREIGN KEY ("subscription_id") REFERENCES "webhook_subscription"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_b723a573cd78b4cff3404153ad1" FOREIGN KEY ("event_id") REFERENCES "domain_event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery" DROP CONSTRAINT "FK_b723a573cd78b4cff3404153ad1"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery" DROP CONSTRAINT "FK_236a6a1218756223393d1fb5acc"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_subscription" DROP CONSTRAINT "FK_d6ac76394d7dfbe461c8a19c53b"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_delivery_subscription"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_delivery_due"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_delivery_event"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery"`);
    await queryRunner.query(`DROP TYPE "public"."webhook_delivery_status"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_subscription_organization"`);
    await queryRunner.query(`DROP TABLE "webhook_subscription"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_domain_event_unrelayed"`);
    await queryRunner.query(`DROP TABLE "domain_event"`);
  }
}
