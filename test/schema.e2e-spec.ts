import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { prepared } from '../src/database/preparing-client.js';

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
  const marked = prepared('SELECT $1::int + 1 AS marked');
  const preparedAfterTwoRuns = async (preparedStatements: boolean) => {
    const dataSource = new DataSource(
      dataSourceOptions(process.env.DATABASE_URL as string, { preparedStatements }),
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
    const dataSource = new DataSource(dataSourceOptions(process.env.DATABASE_URL as string));
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
