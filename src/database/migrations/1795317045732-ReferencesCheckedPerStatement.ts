import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The links a result batch bulk-loads (`test_case` → `project`, `test_run_case` → `test_run`
 * and `test_case`, `test_result` → `test_run_case`) are checked once per statement instead of once per row.
 *
 * A foreign key runs one lookup and one row lock per inserted row: for 1,000 results that
 * was a third of the cost of loading them, and a 20,000-case report paid 60,000 of them.
 * Here one set-based statement per insert finds and locks (FOR KEY SHARE, as a foreign key
 * does) every distinct parent the new rows name, and refuses the statement when one is
 * missing, with the foreign-key SQLSTATE (23503). Deleting a parent removes its children in
 * one statement, as ON DELETE CASCADE did, and the linking keys cannot be updated (a foreign
 * key would re-check them; nothing in the service changes them).
 *
 * Written by hand: TypeORM neither generates nor compares triggers.
 */
const REFERENCES: Array<{
  name: string;
  child: string;
  parent: string;
  /** The child's key columns, in the order of the parent's. */
  childKey: string[];
  parentKey: string[];
  /** The foreign key this replaces, for `down`. */
  constraint: string;
}> = [
  {
    name: 'test_case_project',
    child: 'test_case',
    parent: 'project',
    childKey: ['project_id'],
    parentKey: ['id'],
    constraint: 'FK_2ae32322d6d2b0a8021856badc8',
  },
  {
    name: 'test_run_case_run',
    child: 'test_run_case',
    parent: 'test_run',
    childKey: ['test_run_id'],
    parentKey: ['id'],
    constraint: 'FK_5b6e8857312d467aefcdafc01d6',
  },
  {
    name: 'test_run_case_case',
    child: 'test_run_case',
    parent: 'test_case',
    childKey: ['test_case_id'],
    parentKey: ['id'],
    constraint: 'FK_d50ea950193e2aaeb9ffce5dce1',
  },
  {
    name: 'test_result_run_case',
    child: 'test_result',
    parent: 'test_run_case',
    childKey: ['test_run_id', 'test_case_id'],
    parentKey: ['test_run_id', 'test_case_id'],
    constraint: 'FK_6bdc5b6c92109154a387433154b',
  },
];

const quoted = (columns: string[]) => columns.map((c) => `"${c}"`).join(', ');
const matching = (left: string, leftKey: string[], right: string, rightKey: string[]) =>
  leftKey.map((c, i) => `${left}.${c} = ${right}.${rightKey[i]}`).join(' AND ');

export class ReferencesCheckedPerStatement1795317045732 implements MigrationInterface {
  name = 'ReferencesCheckedPerStatement1795317045732';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // TG_ARGV: parent table, the child's key columns, the join of a parent p to a new row n.
    await queryRunner.query(`
            CREATE FUNCTION check_references() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                wanted bigint;
                found bigint;
            BEGIN
                EXECUTE format('SELECT count(*) FROM (SELECT DISTINCT %s FROM new_rows) k', TG_ARGV[1])
                   INTO wanted;
                EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM %I p WHERE EXISTS (SELECT 1 FROM new_rows n WHERE %s) FOR KEY SHARE OF p) k',
                               TG_ARGV[0], TG_ARGV[2])
                   INTO found;
                IF found < wanted THEN
                    RAISE EXCEPTION 'insert on table "%" violates its foreign key to "%"', TG_TABLE_NAME, TG_ARGV[0]
                        USING ERRCODE = 'foreign_key_violation';
                END IF;
                RETURN NULL;
            END $$`);
    // TG_ARGV: child table, the join of a child c to a deleted parent o.
    await queryRunner.query(`
            CREATE FUNCTION cascade_references() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                EXECUTE format('DELETE FROM %I c USING old_rows o WHERE %s', TG_ARGV[0], TG_ARGV[1]);
                RETURN NULL;
            END $$`);
    await queryRunner.query(`
            CREATE FUNCTION forbid_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'the key columns of "%" cannot be changed', TG_TABLE_NAME
                    USING ERRCODE = 'foreign_key_violation';
            END $$`);

    for (const ref of REFERENCES) {
      await queryRunner.query(`ALTER TABLE "${ref.child}" DROP CONSTRAINT "${ref.constraint}"`);
      const check = matching('p', ref.parentKey, 'n', ref.childKey);
      await queryRunner.query(`CREATE TRIGGER ${ref.name}_check AFTER INSERT ON "${ref.child}"
            REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
            EXECUTE FUNCTION check_references('${ref.parent}', '${ref.childKey.join(', ')}', '${check}')`);
      const cascade = matching('c', ref.childKey, 'o', ref.parentKey);
      await queryRunner.query(`CREATE TRIGGER ${ref.name}_cascade AFTER DELETE ON "${ref.parent}"
            REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
            EXECUTE FUNCTION cascade_references('${ref.child}', '${cascade}')`);
    }
    // Keys that link rows never change (a column list: the trigger costs nothing otherwise).
    for (const [table, key] of [
      ['project', ['id']],
      ['test_run', ['id']],
      ['test_case', ['id', 'project_id']],
      ['test_run_case', ['test_run_id', 'test_case_id']],
      ['test_result', ['test_run_id', 'test_case_id']],
    ] as const) {
      await queryRunner.query(`CREATE TRIGGER ${table}_key_fixed BEFORE UPDATE OF ${quoted([...key])}
            ON "${table}" FOR EACH ROW
            WHEN (${key.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
            EXECUTE FUNCTION forbid_key_change()`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['project', 'test_run', 'test_case', 'test_run_case', 'test_result']) {
      await queryRunner.query(`DROP TRIGGER ${table}_key_fixed ON "${table}"`);
    }
    for (const ref of [...REFERENCES].reverse()) {
      await queryRunner.query(`DROP TRIGGER ${ref.name}_cascade ON "${ref.parent}"`);
      await queryRunner.query(`DROP TRIGGER ${ref.name}_check ON "${ref.child}"`);
      await queryRunner.query(
        `ALTER TABLE "${ref.child}" ADD CONSTRAINT "${ref.constraint}" FOREIGN KEY (${quoted(
          ref.childKey,
        )}) REFERENCES "${ref.parent}"(${quoted(ref.parentKey)}) ON DELETE CASCADE ON UPDATE NO ACTION`,
      );
    }
    await queryRunner.query(`DROP FUNCTION forbid_key_change()`);
    await queryRunner.query(`DROP FUNCTION cascade_references()`);
    await queryRunner.query(`DROP FUNCTION check_references()`);
  }
}
