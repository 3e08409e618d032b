import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';
import { BoundedClient, PreparingClient } from './preparing-client.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

/** How much longer than PostgreSQL's statement timeout the client waits for an answer. */
const QUERY_TIMEOUT_MARGIN_MS = 5_000;
/** How long the client waits for an answer when PostgreSQL enforces no statement timeout. */
const DEFAULT_QUERY_TIMEOUT_MS = 65_000;
/** Idle time after which TCP keep-alive probes a connection (the OS default is 2 hours). */
const KEEP_ALIVE_DELAY_MS = 10_000;

/** A TypeORM entity class. */
export type EntityClass = new () => object;

/**
 * The one description of the database, used by the app, the migration CLI and the tests.
 * `entities`: the application's (`src/entities.ts`); none where only migrations run.
 */
export function dataSourceOptions(
  databaseUrl: string,
  options: {
    entities?: EntityClass[];
    asynchronousCommit?: boolean;
    preparedStatements?: boolean;
    connectTimeoutMs?: number;
    statementTimeoutMs?: number;
  } = {},
): DataSourceOptions {
  const serverOptions = [
    // JIT compiles a plan whose estimated cost passes a threshold. Estimates of tables that
    // grow to millions of rows pass it on reads that touch a few thousand (a release's
    // progress spent 0.97 s compiling at 32M results, issue 29), and the statements here are
    // index reads, which compiled expressions do not speed up: the service never uses it.
    '-c jit=off',
    ...(options.asynchronousCommit ? ['-c synchronous_commit=off'] : []),
    ...(options.statementTimeoutMs ? [`-c statement_timeout=${options.statementTimeoutMs}`] : []),
  ];
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: options.entities ?? [],
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    uuidExtension: 'pgcrypto',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: 20,
      Client: options.preparedStatements === false ? BoundedClient : PreparingClient,
      application_name: 'test-management-service',
      ...(serverOptions.length > 0 ? { options: serverOptions.join(' ') } : {}),
      // A database that is down or unreachable makes a request fail in bounded time (a 503)
      // instead of waiting for ever: for a connection, for PostgreSQL to end a statement, and,
      // should the network drop the server's answer, for the answer itself (the connection is
      // then dropped: BoundedClient).
      ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      query_timeout: options.statementTimeoutMs
        ? options.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS
        : DEFAULT_QUERY_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS,
    },
  };
}
