import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { createApp } from './app.js';
import { settingsFromEnvironment } from './config/environment.js';
import { SettingsError } from './config/settings.js';
import { prepareDatabase } from './database/prepare-database.js';
import { exitGracefullyOnSignals } from './lifecycle.js';

async function bootstrap(): Promise<void> {
  const settings = settingsFromEnvironment();
  await prepareDatabase(settings.databaseUrl, settings.migrationsRun);
  const app = await createApp(settings);
  const logger = app.get(Logger);
  exitGracefullyOnSignals(app, settings, logger);
  await app.listen(settings.port);
  logger.log(
    `Listening on ${settings.tlsEnabled ? 'https' : 'http'}://0.0.0.0:${settings.port} as ${settings.appRole}`,
    'Bootstrap',
  );
}

bootstrap().catch((error: unknown) => {
  const text = error instanceof SettingsError ? error.message : `Start-up failed: ${String(error)}`;
  process.stderr.write(`${text}\n`);
  process.exit(1);
});
