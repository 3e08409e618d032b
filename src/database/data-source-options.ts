import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';
import { PreparingClient } from './preparing-client.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

/** The one description of the database, used by the app, the migration CLI and the tests. */
export function dataSourceOptions(
  databaseUrl: string,
  options: { asynchronousCommit?: boolean; preparedStatements?: boolean } = {},
): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    uuidExtension: 'pgcrypto',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: 20,
      ...(options.preparedStatements === false ? {} : { Client: PreparingClient }),
      application_name: 'test-management-service',
      ...(options.asynchronousCommit ? { options: '-c synchronous_commit=off' } : {}),
    },
  };
}
