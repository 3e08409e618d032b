import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { LargeBodyTurnsInterceptor } from '../common/http/large-body-turns.js';
import { IdempotencyCleanup } from './idempotency-cleanup.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency.store.js';

@Module({
  providers: [
    IdempotencyStore,
    IdempotencyCleanup,
    // Global interceptors run in the order they are provided: a large body waits for its turn
    // before the idempotency interceptor opens the transaction the handler runs in.
    { provide: APP_INTERCEPTOR, useClass: LargeBodyTurnsInterceptor },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [IdempotencyStore, IdempotencyCleanup],
})
export class IdempotencyModule {}
