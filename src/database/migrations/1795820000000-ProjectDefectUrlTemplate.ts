import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project may name where its defects live: a URL template with `{id}` (issue 31), from
 * which a result's defect ids become links. None by default: ids are shown as text.
 */
export class ProjectDefectUrlTemplate1795820000000 implements MigrationInterface {
  name = 'ProjectDefectUrlTemplate1795820000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "project" ADD "defect_url_template" character varying(2048)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "project" DROP COLUMN "defect_url_template"`);
  }
}
