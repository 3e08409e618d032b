import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { PartitionResultsByRunMonth1795880000000 } from '../../src/database/migrations/1795880000000-PartitionResultsByRunMonth.js';
import { partitionName, runMonthOf } from '../../src/database/run-months.js';
import { monthBefore, monthsFrom, uuid7At } from './month-runs.js';

const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Every row of both tables, in key order: equal before and after the rows are moved. */
const FINGERPRINT = `SELECT
  (SELECT count(*)::int FROM test_result) AS results,
  (SELECT md5(string_agg(t::text, E'\\n' ORDER BY t.id)) FROM test_result t) AS result_rows,
  (SELECT count(*)::int FROM test_run_case) AS slots,
  (SELECT md5(string_agg(t::text, E'\\n' ORDER BY t.test_run_id, t.test_case_id, t.configuration))
     FROM test_run_case t) AS slot_rows`;

// Issue 29: the migration partitions a database that already has results, moving every row
// into its run's month (or the default partition), and `down` puts them back.
describe('the migration partitioning results by month of their run', () => {
  let name: string;
  let db: DataSource;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL as string);
    name = `${url.pathname.slice(1)}_before_partitions`;
    url.pathname = `/${name}`;
    await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    // Every migration before it: the schema the partitioning migration finds.
    db = new DataSource({
      ...dataSourceOptions(url.toString()),
      migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(PartitionResultsByRunMonth1795880000000)),
      extra: { max: 2 },
    });
    await db.initialize();
    const applied = await db.runMigrations({ transaction: 'each' });
    expect(applied.at(-1)?.name).toBe('KeepReleaseSlots1795870000000');
  });
  afterAll(async () => {
    await db?.destroy();
    await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  });

  /** Runs `step` of the migration in one transaction, as the migration Job would. */
  async function migrate(step: 'up' | 'down') {
    const runner = db.createQueryRunner();
    await runner.startTransaction();
    try {
      await new PartitionResultsByRunMonth1795880000000()[step](runner);
      await runner.commitTransaction();
    } catch (e) {
      await runner.rollbackTransaction();
      throw e;
    } finally {
      await runner.release();
    }
  }

  /** Two runs of one month, one of the month after, and one with a random (v4) id. */
  async function populate() {
    const [org] = await db.query(
      `INSERT INTO organization (name, plan, subscription_started_at)
       VALUES ('Org', 'pro', now()) RETURNING id`,
    );
    const [project] = await db.query(
      `INSERT INTO project (organization_id, name, key, runs_created)
       VALUES ($1, 'Web', 'WEB', 4) RETURNING id`,
      [org.id],
    );
    await db.query(
      `INSERT INTO test_case (organization_id, project_id, title, automation_id)
       SELECT $1, $2, 'Case ' || i, 'case.' || i FROM generate_series(1, 3) i`,
      [org.id, project.id],
    );
    const thisMonth = runMonthOf(Date.now());
    const older = monthsFrom(thisMonth, -2);
    const newer = monthBefore(thisMonth);
    const day = 24 * 60 * 60 * 1000;
    const runs = {
      olderFirst: uuid7At(older.start.getTime() + day),
      olderLast: uuid7At(older.end.getTime() - 1),
      newer: uuid7At(newer.start.getTime()),
      v4: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
    };
    await db.query(
      `INSERT INTO test_run (id, organization_id, project_id, name, status, source, position)
       SELECT id, $2, $3, 'Nightly', 'completed', 'api', n FROM unnest($1::uuid[]) WITH ORDINALITY r(id, n)`,
      [Object.values(runs), org.id, project.id],
    );
    // Each run: three cases in two configurations, each slot with a replaced result.
    await db.query(
      `INSERT INTO test_run_case (test_run_id, test_case_id, configuration, result_id, status,
                                  flaky, result_created_at)
       SELECT r.id, c.id, cfg, gen_random_uuid(), 'passed', false, now()
         FROM unnest($1::uuid[]) r(id), test_case c, unnest(ARRAY['', 'firefox']) cfg
        WHERE c.project_id = $2`,
      [Object.values(runs), project.id],
    );
    await db.query(
      `INSERT INTO test_result (id, organization_id, test_run_id, test_case_id, configuration,
                                status, message, created_at)
       SELECT CASE WHEN k = 2 THEN s.result_id ELSE gen_random_uuid() END, $1, s.test_run_id,
              s.test_case_id, s.configuration,
              (CASE WHEN k = 1 THEN 'failed' ELSE 'passed' END)::result_status,
              'try ' || k, now() - (2 - k) * interval '1 minute'
         FROM test_run_case s, generate_series(1, 2) k`,
      [org.id],
    );
    return { runs, older, newer, organizationId: org.id };
  }

  const whereRowsAre = async (table: string) => {
    const rows: Array<{ run: string; partition: string }> = await db.query(
      `SELECT DISTINCT test_run_id AS run, tableoid::regclass::text AS partition FROM ${table}`,
    );
    return Object.fromEntries(rows.map((row) => [row.run, row.partition]));
  };
  const missingSlotRefused = () =>
    db
      .query(
        `INSERT INTO test_result (organization_id, test_run_id, test_case_id, configuration, status)
         SELECT organization_id, test_run_id, test_case_id, 'webkit', 'passed'
           FROM test_result LIMIT 1`,
      )
      .then(
        () => null,
        (e: { code?: string }) => e.code,
      );

  it('moves every row into its run’s month or the default partition, and back on down', async () => {
    const { runs, older, newer } = await populate();
    const [before] = await db.query(FINGERPRINT);
    expect(before).toMatchObject({ results: 48, slots: 24 });

    await migrate('up');

    expect(await db.query(FINGERPRINT)).toEqual([before]);
    for (const table of ['test_result', 'test_run_case'] as const) {
      expect(await whereRowsAre(table)).toEqual({
        [runs.olderFirst]: partitionName(table, older),
        [runs.olderLast]: partitionName(table, older),
        [runs.newer]: partitionName(table, newer),
        [runs.v4]: `${table}_default`,
      });
    }
    // The reference triggers, made again on the partitioned tables, still hold.
    expect(await missingSlotRefused()).toBe('23503');
    const runner = db.createQueryRunner();
    await runner.startTransaction();
    try {
      for (const run of [runs.olderFirst, runs.v4]) {
        await runner.query(`DELETE FROM test_run WHERE id = $1`, [run]);
        const [left] = await runner.query(
          `SELECT (SELECT count(*)::int FROM test_result WHERE test_run_id = $1) AS results,
                  (SELECT count(*)::int FROM test_run_case WHERE test_run_id = $1) AS slots`,
          [run],
        );
        expect(left).toEqual({ results: 0, slots: 0 });
      }
      const [{ all }] = await runner.query(`SELECT count(*)::int AS all FROM test_result`);
      expect(all).toBe(24);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }

    await migrate('down');

    expect(await db.query(FINGERPRINT)).toEqual([before]);
    // Plain tables again, with no partition left beside them.
    const tables = await db.query(
      `SELECT relname, relkind FROM pg_class
        WHERE relkind IN ('r', 'p')
          AND (relname LIKE 'test\\_result%' OR relname LIKE 'test\\_run\\_case%')
        ORDER BY relname`,
    );
    expect(tables).toEqual([
      { relname: 'test_result', relkind: 'r' },
      { relname: 'test_run_case', relkind: 'r' },
    ]);
    expect(await missingSlotRefused()).toBe('23503');
  });
});
