import { DataSource } from 'typeorm';
import pg from 'pg';
import { dataSourceOptions } from './data-source-options.js';

/** Arbitrary constant: the advisory lock that serializes migrations across replicas. */
const MIGRATION_LOCK_ID = 727_001;

/**
 * Creates the database named in the URL when it does not exist yet. Several replicas may race
 * here at start-up; the loser's "already exists" is not an error.
 */
export async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (name === '') throw new Error('DATABASE_URL names no database');
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client
        .query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`)
        .catch((error: { code?: string }) => {
          if (error.code !== '42P04' && error.code !== '23505') throw error;
        });
    }
  } finally {
    await client.end();
  }
}

/** Runs pending migrations under an advisory lock, so replicas starting together take turns. */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  // Its own one-connection data source: migrations run before the application (and its
  // Transactions) exists.
  const dataSource = new DataSource({ ...dataSourceOptions(databaseUrl), extra: { max: 1 } });
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await dataSource.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await dataSource.destroy();
  }
}

/**
 * At start-up with MIGRATIONS_RUN (the default): create the database if missing and migrate.
 * Deployments that migrate in a Job (MIGRATIONS_RUN=false) touch neither.
 */
export async function prepareDatabase(databaseUrl: string, migrate: boolean): Promise<void> {
  if (!migrate) return;
  await ensureDatabaseExists(databaseUrl);
  await runMigrations(databaseUrl);
}
