import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A run keeps the quality gate's verdict of its last completion (CONTRACT §12: `gate`, null
 * until completed), and a project sets the gate's `min_tests` (default 1: a run in which
 * nothing ran fails). Runs completed before this keep a null verdict: it was never stored.
 */
export class KeepRunVerdicts1795510000000 implements MigrationInterface {
  name = 'KeepRunVerdicts1795510000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "test_run" ADD "gate_passed" boolean`);
    await queryRunner.query(
      `ALTER TABLE "test_run" ADD "gate_evaluated_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "project" ADD "gate_min_tests" integer NOT NULL DEFAULT 1`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "project" DROP COLUMN "gate_min_tests"`);
    await queryRunner.query(`ALTER TABLE "test_run" DROP COLUMN "gate_evaluated_at"`);
    await queryRunner.query(`ALTER TABLE "test_run" DROP COLUMN "gate_passed"`);
  }
}
