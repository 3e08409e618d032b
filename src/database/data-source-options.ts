import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';
import { PreparingClient } from './preparing-client.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

/** How much longer than PostgreSQL's statement timeout the client waits for an answer. */
const QUERY_TIMEOUT_MARGIN_MS = 5_000;

/** The one description of the database, used by the app, the migration CLI and the tests. */
export function dataSourceOptions(
  databaseUrl: string,
  options: {
    asynchronousCommit?: boolean;
    preparedStatements?: boolean;
    connectTimeoutMs?: number;
    statementTimeoutMs?: number;
  } = {},
): DataSourceOptions {
  const serverOptions = [
    ...(options.asynchronousCommit ? ['-c synchronous_commit=off'] : []),
    ...(options.statementTimeoutMs ? [`-c statement_timeout=${options.statementTimeoutMs}`] : []),
  ];
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
      ...(serverOptions.length > 0 ? { options: serverOptions.join(' ') } : {}),
      // A database that is down or unreachable makes a request fail in bounded time (a 503)
      // instead of waiting for ever: for a connection, for PostgreSQL to end a statement, and,
      // should the network drop the server's answer, for the answer itself.
      ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      ...(options.statementTimeoutMs
        ? { query_timeout: options.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS }
        : {}),
      keepAlive: true,
    },
  };
}
