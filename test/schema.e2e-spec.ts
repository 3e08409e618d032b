import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options.js';

describe('database schema', () => {
  it('has migrations that produce exactly what the entities describe', async () => {
    const dataSource = new DataSource(dataSourceOptions(process.env.DATABASE_URL as string));
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
});

describe('database connections', () => {
  const preparedAfterTwoRuns = async (preparedStatements: boolean) => {
    const dataSource = new DataSource(
      dataSourceOptions(process.env.DATABASE_URL as string, { preparedStatements }),
    );
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    try {
      for (let i = 0; i < 2; i++) {
        expect(await runner.query('SELECT $1::int + 1 AS n', [i])).toEqual([{ n: i + 1 }]);
        expect(await runner.query('SELECT cardinality($1::int[]) AS n', [[i, i]])).toEqual([
          { n: 2 },
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

  it('prepares a statement with scalar parameters once per connection, not one with arrays', async () => {
    expect(await preparedAfterTwoRuns(true)).toEqual(['SELECT $1::int + 1 AS n']);
  });

  it('prepares a statement afresh after a migration changed what it returns', async () => {
    const dataSource = new DataSource(dataSourceOptions(process.env.DATABASE_URL as string));
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    const table = `stale_plan_${process.pid}`;
    try {
      await runner.query(`CREATE TABLE ${table} (id int, label int)`);
      await runner.query(`INSERT INTO ${table} VALUES (1, 7)`);
      const read = () => runner.query(`SELECT label FROM ${table} WHERE id = $1`, [1]);
      expect(await read()).toEqual([{ label: 7 }]);
      await runner.query(`ALTER TABLE ${table} ALTER COLUMN label TYPE text`);
      await expect(read()).rejects.toThrow(/cached plan must not change result type/);
      expect(await read()).toEqual([{ label: '7' }]);
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
