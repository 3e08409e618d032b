import { MigrationInterface, QueryRunner } from 'typeorm';

export class CountBuildsPerOrganization1795304119576 implements MigrationInterface {
  name = 'CountBuildsPerOrganization1795304119576';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "build_count" ("organization_id" uuid NOT NULL, "total" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_cf42cc6be6782954cd573066d5a" PRIMARY KEY ("organization_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "build_count" ADD CONSTRAINT "FK_cf42cc6be6782954cd573066d5a" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Written by hand: statement-level triggers keep the count exact for every way builds
    // are inserted or deleted (API, UI, bulk loads), once per statement rather than per row.
    await queryRunner.query(`
            CREATE FUNCTION build_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO build_count (organization_id, total)
                SELECT organization_id, count(*) FROM inserted GROUP BY organization_id
                ON CONFLICT (organization_id) DO UPDATE SET total = build_count.total + EXCLUDED.total;
                RETURN NULL;
            END $$`);
    await queryRunner.query(`
            CREATE FUNCTION build_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE build_count c SET total = c.total - d.n
                  FROM (SELECT organization_id, count(*) AS n FROM deleted GROUP BY organization_id) d
                 WHERE c.organization_id = d.organization_id;
                RETURN NULL;
            END $$`);
    await queryRunner.query(`CREATE TRIGGER build_count_on_insert AFTER INSERT ON "build"
            REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION build_count_add()`);
    await queryRunner.query(`CREATE TRIGGER build_count_on_delete AFTER DELETE ON "build"
            REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION build_count_remove()`);
    await queryRunner.query(`INSERT INTO build_count (organization_id, total)
            SELECT organization_id, count(*) FROM build GROUP BY organization_id`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER build_count_on_delete ON "build"`);
    await queryRunner.query(`DROP TRIGGER build_count_on_insert ON "build"`);
    await queryRunner.query(`DROP FUNCTION build_count_remove()`);
    await queryRunner.query(`DROP FUNCTION build_count_add()`);
    await queryRunner.query(
      `ALTER TABLE "build_count" DROP CONSTRAINT "FK_cf42cc6be6782954cd573066d5a"`,
    );
    await queryRunner.query(`DROP TABLE "build_count"`);
  }
}
