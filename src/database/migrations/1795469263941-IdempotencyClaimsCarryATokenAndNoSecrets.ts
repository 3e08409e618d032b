import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each claim of an Idempotency-Key carries a token of its own, so a request whose claim was
 * taken over (its process was thought dead) can neither store its answer over its successor's
 * nor release the successor's claim. And the secrets shown once that replays used to keep (an
 * API key's `key`, a subscription's `secret`) are removed from the answers already stored.
 */
export class IdempotencyClaimsCarryATokenAndNoSecrets1795469263941 implements MigrationInterface {
  name = 'IdempotencyClaimsCarryATokenAndNoSecrets1795469263941';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "idempotency_record" ADD "claim_token" uuid NOT NULL DEFAULT gen_random_uuid()`,
    );
    await queryRunner.query(
      `UPDATE "idempotency_record" SET "response_body" = jsonb_set("response_body", '{key}', 'null')
        WHERE jsonb_typeof("response_body") = 'object' AND "response_body"->>'key' LIKE 'svc\\_live\\_%'`,
    );
    await queryRunner.query(
      `UPDATE "idempotency_record" SET "response_body" = jsonb_set("response_body", '{secret}', 'null')
        WHERE jsonb_typeof("response_body") = 'object' AND "response_body"->>'secret' LIKE 'whsec\\_%'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_record" DROP COLUMN "claim_token"`);
  }
}
