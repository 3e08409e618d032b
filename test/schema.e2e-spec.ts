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
