import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { IdempotencyClaimsCarryATokenAndNoSecrets1795469263941 } from '../../src/database/migrations/1795469263941-IdempotencyClaimsCarryATokenAndNoSecrets.js';
import { ProjectKeysIgnoreCase1795500000000 } from '../../src/database/migrations/1795500000000-ProjectKeysIgnoreCase.js';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { prepared } from '../../src/database/preparing-client.js';
import { ENTITIES } from '../../src/entities.js';

describe('database schema', () => {
  it('has migrations that produce exactly what the entities describe', async () => {
    const dataSource = new DataSource(
      dataSourceOptions(process.env.DATABASE_URL as string, { entities: ENTITIES }),
    );
    await dataSource.initialize();
    try {
      const pending = await dataSource.showMigrations();
      expect(pending).toBe(false);
      const diff = await dataSource.driver.createSchemaBuilder().log();
      expect(diff.upQueries.map((query) => query.query)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('strips the shown-once secrets from answers stored for replay before the fix', async () => {
    const dataSource = new DataSource(
      dataSourceOptions(process.env.DATABASE_URL as string, { entities: ENTITIES }),
    );
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    const migration = new IdempotencyClaimsCarryATokenAndNoSecrets1795469263941();
    const owner = `org:${randomUUID()}`;
    const key = `svc_live_${'ab'.repeat(32)}`;
    try {
      // The table as it was before the migration, holding what replays used to keep.
      await migration.down(runner);
      await runner.query(
        `INSERT INTO idempotency_record (owner, key, fingerprint, response_status, response_body, locked_at)
         VALUES ($1, 'key', repeat('f', 64), 201, $2, now()), ($1, 'hook', repeat('f', 64), 201, $3, now()),
                ($1, 'build', repeat('f', 64), 202, $4, now())`,
        [
          owner,
          JSON.stringify({ id: 'k1', key }),
          JSON.stringify({ id: 'w1', secret: 'whsec_c2VjcmV0' }),
          JSON.stringify({ id: 'b1', key: 'not a secret' }),
        ],
      );
      await migration.up(runner);
      const rows: Array<{ key: string; response_body: unknown }> = await runner.query(
        'SELECT key, response_body FROM idempotency_record WHERE owner = $1 ORDER BY key',
        [owner],
      );
      expect(rows).toEqual([
        { key: 'build', response_body: { id: 'b1', key: 'not a secret' } },
        { key: 'hook', response_body: { id: 'w1', secret: null } },
        { key: 'key', response_body: { id: 'k1', key: null } },
      ]);
    } finally {
      await runner.query('DELETE FROM idempotency_record WHERE owner = $1', [owner]);
      await runner.release();
      await dataSource.destroy();
    }
  });
});

describe('the migration that makes project keys unique in any case', () => {
  it('renames the later of keys that differ only in case to a free `<key>-<n>`, per organization', async () => {
    const dataSource = new DataSource(
      dataSourceOptions(process.env.DATABASE_URL as string, { entities: ENTITIES }),
    );
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    const migration = new ProjectKeysIgnoreCase1795500000000();
    const long = 'k'.repeat(32);
    // In a transaction rolled back at the end: other test files never see the old index.
    await runner.startTransaction();
    try {
      await migration.down(runner);
      const [[a], [b]]: Array<Array<{ id: string }>> = await Promise.all(
        ['a', 'b'].map((name) =>
          runner.query(
            `INSERT INTO organization (name, plan, subscription_started_at) VALUES ($1, 'pro', now()) RETURNING id`,
            [name],
          ),
        ),
      );
      const projects: Array<[string, string, number]> = [
        [a.id, 'web', 0],
        [a.id, 'WEB', 1],
        [a.id, 'Web', 2],
        [a.id, 'web-2', 3],
        [a.id, long.toUpperCase(), 4],
        [a.id, long, 5],
        [b.id, 'WEB', 6],
      ];
      for (const [organization, key, minutes] of projects) {
        await runner.query(
          `INSERT INTO project (organization_id, name, key, created_at)
           VALUES ($1, $2, $2, now() + make_interval(mins => $3))`,
          [organization, key, minutes],
        );
      }
      await migration.up(runner);
      const keys = async (organization: string) =>
        (
          (await runner.query(
            'SELECT key FROM project WHERE organization_id = $1 ORDER BY created_at',
            [organization],
          )) as Array<{ key: string }>
        ).map((row) => row.key);
      expect(await keys(a.id)).toEqual([
        'web',
        'WEB-3',
        'Web-4',
        'web-2',
        long.toUpperCase(),
        `${'k'.repeat(30)}-2`,
      ]);
      expect(await keys(b.id)).toEqual(['WEB']);
      await expect(
        runner.query(`INSERT INTO project (organization_id, name, key) VALUES ($1, 'x', 'wEb')`, [
          a.id,
        ]),
      ).rejects.toMatchObject({ code: '23505' });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
      await dataSource.destroy();
    }
  });
});

describe('database connections', () => {
  const marked = prepared('SELECT $1::int + 1 AS marked');
  const preparedAfterTwoRuns = async (preparedStatements: boolean) => {
    const dataSource = new DataSource(
      dataSourceOptions(process.env.DATABASE_URL as string, {
        entities: ENTITIES,
        preparedStatements,
      }),
    );
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    try {
      for (let i = 0; i < 2; i++) {
        expect(await runner.query(marked, [i])).toEqual([{ marked: i + 1 }]);
        expect(await runner.query('SELECT $1::int + 1 AS unmarked', [i])).toEqual([
          { unmarked: i + 1 },
        ]);
      }
      const rows: Array<{ statement: string }> = await runner.query(
        'SELECT statement FROM pg_prepared_statements',
      );
      return rows.map((row) => row.statement);
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
  };

  it('prepares a marked statement once per connection, and no other', async () => {
    expect(await preparedAfterTwoRuns(true)).toEqual([marked]);
  });

  it('prepares a statement afresh after a migration changed what it returns', async () => {
    const dataSource = new DataSource(
      dataSourceOptions(process.env.DATABASE_URL as string, { entities: ENTITIES }),
    );
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    const table = `stale_plan_${process.pid}`;
    const read = prepared(`SELECT label FROM ${table} WHERE id = $1`);
    try {
      await runner.query(`CREATE TABLE ${table} (id int, label int)`);
      await runner.query(`INSERT INTO ${table} VALUES (1, 7)`);
      expect(await runner.query(read, [1])).toEqual([{ label: 7 }]);
      await runner.query(`ALTER TABLE ${table} ALTER COLUMN label TYPE text`);
      await expect(runner.query(read, [1])).rejects.toThrow(
        /cached plan must not change result type/,
      );
      expect(await runner.query(read, [1])).toEqual([{ label: '7' }]);
    } finally {
      await runner.query(`DROP TABLE IF EXISTS ${table}`);
      await runner.release();
      await dataSource.destroy();
    }
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=false', async () => {
    expect(await preparedAfterTwoRuns(false)).toEqual([]);
  });
});
