import { settingsFromEnvironment } from './config/environment.js';
import { SettingsError } from './config/settings.js';
import { ensureDatabaseExists, runMigrations } from './database/prepare-database.js';

/**
 * Creates the database if needed and applies pending migrations, then exits: the command of
 * the Kubernetes migration Job (`node dist/migrate.js`), needing production dependencies only.
 */
async function migrate(): Promise<void> {
  const settings = settingsFromEnvironment();
  await ensureDatabaseExists(settings.databaseUrl);
  const applied = await runMigrations(settings.databaseUrl);
  process.stdout.write(`${JSON.stringify({ msg: 'migrations applied', applied })}\n`);
}

migrate().catch((error: unknown) => {
  const text =
    error instanceof SettingsError ? error.message : `Migration failed: ${String(error)}`;
  process.stderr.write(`${text}\n`);
  process.exit(1);
});
