import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';

// Jest loads this file outside its module mapper, so it imports nothing from src/: the
// database is created and migrated by the built migration entry point (`dist/migrate.js`,
// the same one the Kubernetes Job runs). `npm test` builds first.
const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Every test run gets a database of its own, created and migrated here, and a Redis key
 * prefix of its own, so parallel runs never collide. Each Jest worker then gets its own copy
 * of that database and its own prefix (`test/worker-setup.ts`): a worker app delivers every
 * organization's events and some tests count across organizations, so two files running at
 * once must not share either. Everything is dropped in the teardown.
 */
export default async function globalSetup(config: { maxWorkers: number }): Promise<void> {
  if (!existsSync('dist/migrate.js'))
    throw new Error('dist/ is missing: run `npm run build` first');
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const name = `tm_test_${runId}`;
  execFileSync(process.execPath, ['dist/migrate.js'], {
    env: { ...process.env, DATABASE_URL: databaseUrl(name) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A copy per worker, made from the migrated database as a template (a file copy: fast).
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    for (let worker = 1; worker <= Math.max(1, config.maxWorkers); worker++) {
      await admin.query(
        `CREATE DATABASE ${pg.escapeIdentifier(`${name}_w${worker}`)} TEMPLATE ${pg.escapeIdentifier(name)}`,
      );
    }
  } finally {
    await admin.end();
  }
  process.env.DATABASE_URL = databaseUrl(name);
  process.env.TEST_DATABASE_NAME = name;
  process.env.REDIS_URL = REDIS_URL;
  process.env.REDIS_PREFIX = `tmtest_${runId}`;
  process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
}

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
