import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';

// Jest loads this file outside its module mapper, so it imports nothing from src/: the
// database is created and migrated by the built migration entry point (`dist/migrate.js`,
// the same one the Kubernetes Job runs). `npm test` builds first.
const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Every test run gets a database of its own (created and migrated here, dropped in the
 * teardown) and a Redis key prefix of its own, so parallel runs never collide.
 */
export default async function globalSetup(): Promise<void> {
  if (!existsSync('dist/migrate.js'))
    throw new Error('dist/ is missing: run `npm run build` first');
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const name = `tm_test_${runId}`;
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  execFileSync(process.execPath, ['dist/migrate.js'], {
    env: { ...process.env, DATABASE_URL: url.toString() },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.DATABASE_URL = url.toString();
  process.env.TEST_DATABASE_NAME = name;
  process.env.REDIS_URL = REDIS_URL;
  process.env.REDIS_PREFIX = `tmtest_${runId}`;
  process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
}
