import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { LargeBodyTurnsInterceptor } from './common/http/large-body-turns.js';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';

/**
 * The global interceptors of the HTTP API, in the one place where their order shows. They run
 * after the access guard (`AccessModule`), in the order they are provided here: a large body
 * waits for its turn before the idempotency interceptor opens the transaction the handler runs
 * in, so a request waiting for a turn holds no transaction and no database connection.
 */
@Module({
  imports: [IdempotencyModule],
  providers: [
    { provide: APP_INTERCEPTOR, useClass: LargeBodyTurnsInterceptor },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
})
export class HttpPipelineModule {}
