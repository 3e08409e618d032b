import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Project keys are unique per organization without regard to case (CONTRACT §6): `web` beside
 * `WEB` is a conflict. Keys that already differ only in case keep the oldest (creation time,
 * then id) as it is; each later one is renamed to `<key>-<n>`, with the smallest n from 2 whose
 * key is free in any case (the key cut so that it stays within 32 characters): `web`, `WEB`,
 * `Web` become `web`, `WEB-2`, `Web-3`. Each rename is reported as a NOTICE. `down` does not
 * restore the old keys.
 */
export class ProjectKeysIgnoreCase1795500000000 implements MigrationInterface {
  name = 'ProjectKeysIgnoreCase1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DO $$
      DECLARE
        later record;
        n integer;
        renamed text;
      BEGIN
        FOR later IN
          SELECT id, organization_id, key
            FROM (SELECT id, organization_id, key,
                         row_number() OVER (PARTITION BY organization_id, lower(key)
                                            ORDER BY created_at, id) AS rank
                    FROM project) ranked
           WHERE rank > 1
           ORDER BY organization_id, lower(key), rank
        LOOP
          n := 2;
          LOOP
            renamed := left(later.key, 31 - length(n::text)) || '-' || n;
            EXIT WHEN NOT EXISTS (SELECT 1 FROM project
                                   WHERE organization_id = later.organization_id
                                     AND lower(key) = lower(renamed));
            n := n + 1;
          END LOOP;
          UPDATE project SET key = renamed, updated_at = now() WHERE id = later.id;
          RAISE NOTICE 'project % of organization %: key % renamed %, another key differs only in case',
            later.id, later.organization_id, later.key, renamed;
        END LOOP;
      END $$`);
    await queryRunner.query(`DROP INDEX "public"."UQ_project_organization_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_project_organization_lower_key" ON "project" ("organization_id", lower("key"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_project_organization_lower_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_project_organization_key" ON "project" ("organization_id", "key")`,
    );
  }
}
