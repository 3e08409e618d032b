import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project's retention (issue 29): the days its runs are kept, null (every existing project)
 * keeping them all. The worker's sweep finds the runs through (project_id, created_at); a
 * release counts its runs the sweep deleted, so that its progress can say some are gone.
 */
export class ProjectRetention1795810000000 implements MigrationInterface {
  name = 'ProjectRetention1795810000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "project" ADD "retention_days" integer`);
    await queryRunner.query(`ALTER TABLE "release" ADD "runs_deleted" integer NOT NULL DEFAULT 0`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "release" DROP COLUMN "runs_deleted"`);
    await queryRunner.query(`ALTER TABLE "project" DROP COLUMN "retention_days"`);
  }
}
