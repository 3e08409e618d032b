import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The links a result batch bulk-loads (`test_case` → `project`, `test_run_case` → `test_run`
 * and `test_case`, `test_result` → `test_run_case`) are checked once per statement instead
 * of once per row.
 *
 * A foreign key runs one lookup and one row lock per inserted row: for 1,000 results that
 * was a third of the cost of loading them, and a 20,000-case report paid 60,000 of them.
 * Here one set-based query per insert statement, with a plan kept per connection, finds and
 * locks (FOR KEY SHARE, as a foreign key does) every distinct parent the new rows name, and
 * refuses the statement when one is missing, with the foreign-key SQLSTATE (23503).
 * Deleting a parent removes its children in one statement, as ON DELETE CASCADE did (in
 * READ COMMITTED only); a parent with children cannot be truncated; and the linking keys
 * cannot be updated (a foreign key would re-check them; nothing in the service changes them).
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
    await queryRunner.query(`
            CREATE FUNCTION forbid_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'the key columns of "%" cannot be changed', TG_TABLE_NAME
                    USING ERRCODE = 'foreign_key_violation';
            END $$`);

    for (const ref of REFERENCES) {
      await queryRunner.query(`ALTER TABLE "${ref.child}" DROP CONSTRAINT "${ref.constraint}"`);
      // One statement, planned once per connection: each distinct parent the new rows name
      // is found through its key's index and locked; the ones not found are counted.
      const childKey = ref.childKey.map((c) => `n.${c}`).join(', ');
      await queryRunner.query(`
            CREATE FUNCTION ${ref.name}_check() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (
                    SELECT 1
                      FROM (SELECT DISTINCT ${childKey} FROM new_rows n) n
                      LEFT JOIN LATERAL (
                           SELECT true AS found FROM "${ref.parent}" p
                            WHERE ${matching('p', ref.parentKey, 'n', ref.childKey)}
                              FOR KEY SHARE) p ON true
                     WHERE p.found IS NULL) THEN
                    RAISE EXCEPTION 'insert on table "%" violates its foreign key to "%"', TG_TABLE_NAME, '${ref.parent}'
                        USING ERRCODE = 'foreign_key_violation';
                END IF;
                RETURN NULL;
            END $$`);
      await queryRunner.query(`CREATE TRIGGER ${ref.name}_check AFTER INSERT ON "${ref.child}"
            REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${ref.name}_check()`);
      // Under READ COMMITTED the delete sees the children that a concurrent insert, which it
      // waited for (the insert holds its parents' key-share locks), committed. A transaction
      // with an older snapshot could miss them, so it is refused rather than leave them behind.
      await queryRunner.query(`
            CREATE FUNCTION ${ref.name}_cascade() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF current_setting('transaction_isolation') <> 'read committed' THEN
                    RAISE EXCEPTION 'deleting from "%" removes rows of "%": run it in READ COMMITTED', TG_TABLE_NAME, '${ref.child}'
                        USING ERRCODE = 'serialization_failure';
                END IF;
                DELETE FROM "${ref.child}" c USING old_rows o
                 WHERE ${matching('c', ref.childKey, 'o', ref.parentKey)};
                RETURN NULL;
            END $$`);
      await queryRunner.query(`CREATE TRIGGER ${ref.name}_cascade AFTER DELETE ON "${ref.parent}"
            REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${ref.name}_cascade()`);
    }
    // TRUNCATE fires no delete triggers: a parent can be emptied only once its children are.
    await queryRunner.query(`
            CREATE FUNCTION forbid_orphaning_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                orphans boolean;
            BEGIN
                EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I)', TG_ARGV[0]) INTO orphans;
                IF orphans THEN
                    RAISE EXCEPTION 'cannot truncate "%": "%" still has rows that reference it', TG_TABLE_NAME, TG_ARGV[0]
                        USING ERRCODE = 'foreign_key_violation';
                END IF;
                RETURN NULL;
            END $$`);
    for (const ref of REFERENCES) {
      await queryRunner.query(`CREATE TRIGGER ${ref.name}_truncate BEFORE TRUNCATE ON "${ref.parent}"
            FOR EACH STATEMENT EXECUTE FUNCTION forbid_orphaning_truncate('${ref.child}')`);
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
      await queryRunner.query(`DROP TRIGGER ${ref.name}_truncate ON "${ref.parent}"`);
      await queryRunner.query(`DROP TRIGGER ${ref.name}_cascade ON "${ref.parent}"`);
      await queryRunner.query(`DROP FUNCTION ${ref.name}_cascade()`);
      await queryRunner.query(`DROP TRIGGER ${ref.name}_check ON "${ref.child}"`);
      await queryRunner.query(`DROP FUNCTION ${ref.name}_check()`);
      await queryRunner.query(
        `ALTER TABLE "${ref.child}" ADD CONSTRAINT "${ref.constraint}" FOREIGN KEY (${quoted(
          ref.childKey,
        )}) REFERENCES "${ref.parent}"(${quoted(ref.parentKey)}) ON DELETE CASCADE ON UPDATE NO ACTION`,
      );
    }
    await queryRunner.query(`DROP FUNCTION forbid_orphaning_truncate()`);
    await queryRunner.query(`DROP FUNCTION forbid_key_change()`);
  }
}
