import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { BodyBudget } from './common/http/body-budget.js';
import { ReadBodyInterceptor } from './common/http/read-body.interceptor.js';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';

/**
 * The global interceptors of the HTTP API, in the one place where their order shows. They run
 * after the access guard (`AccessModule`), in the order they are provided here: the body is
 * read once the guard admitted the request and its share of the memory budget is free, before
 * the idempotency interceptor opens the transaction the handler runs in, so a request waiting
 * for its share holds no transaction and no database connection.
 */
@Module({
  imports: [IdempotencyModule],
  providers: [
    BodyBudget,
    { provide: APP_INTERCEPTOR, useClass: ReadBodyInterceptor },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [BodyBudget],
})
export class HttpPipelineModule {}
