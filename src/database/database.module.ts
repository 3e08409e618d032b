import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Settings } from '../config/settings.js';
import { dataSourceOptions } from './data-source-options.js';
import { Transactions } from './transactions.js';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [Settings],
      useFactory: (settings: Settings) => dataSourceOptions(settings.databaseUrl),
    }),
  ],
  providers: [Transactions],
  exports: [Transactions],
})
export class DatabaseModule {}
