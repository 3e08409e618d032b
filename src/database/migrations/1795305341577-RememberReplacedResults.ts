import { MigrationInterface, QueryRunner } from 'typeorm';

export class RememberReplacedResults1795305341577 implements MigrationInterface {
  name = 'RememberReplacedResults1795305341577';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "test_run_case" ADD "replaced_status" "public"."result_status"`,
    );
    await queryRunner.query(`ALTER TABLE "test_run_case" ADD "replaced_flaky" boolean`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "test_run_case" DROP COLUMN "replaced_flaky"`);
    await queryRunner.query(`ALTER TABLE "test_run_case" DROP COLUMN "replaced_status"`);
  }
}
