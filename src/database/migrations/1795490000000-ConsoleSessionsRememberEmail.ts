import { MigrationInterface, QueryRunner } from 'typeorm';

export class ConsoleSessionsRememberEmail1795490000000 implements MigrationInterface {
  name = 'ConsoleSessionsRememberEmail1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "console_session" ADD "email" character varying(320)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "console_session" DROP COLUMN "email"`);
  }
}
