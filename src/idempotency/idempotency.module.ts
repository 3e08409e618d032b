import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyCleanup } from './idempotency-cleanup.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency.store.js';

@Module({
  providers: [
    IdempotencyStore,
    IdempotencyCleanup,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [IdempotencyStore, IdempotencyCleanup],
})
export class IdempotencyModule {}
