import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Settings } from '../config/settings.js';
import { dataSourceOptions, type EntityClass } from './data-source-options.js';
import { Transactions } from './transactions.js';

/** The data source and `Transactions`, for the `entities` the application's wiring lists. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(entities: EntityClass[]): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [Settings],
          // A worker-only process writes nothing a client was promised: only outbox relays and
          // delivery bookkeeping, each consistent on its own. If PostgreSQL crashed, the last
          // moments of those could be lost and would be redone (events relayed again, an attempt
          // sent again with the same event id), so it need not wait for each commit to reach disk.
          // Processes that serve the API keep synchronous commits.
          useFactory: (settings: Settings) =>
            dataSourceOptions(settings.databaseUrl, {
              entities,
              asynchronousCommit: settings.appRole === 'worker',
              preparedStatements: settings.databasePreparedStatements,
              connectTimeoutMs: settings.databaseConnectTimeoutMs,
              statementTimeoutMs: settings.databaseStatementTimeoutMs,
            }),
        }),
      ],
      providers: [Transactions],
      exports: [Transactions],
    };
  }
}
