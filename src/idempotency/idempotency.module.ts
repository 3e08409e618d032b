import { Module } from '@nestjs/common';
import { IdempotencyCleanup } from './idempotency-cleanup.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyStore } from './idempotency.store.js';

/** Stored idempotent responses; the interceptor is registered in `HttpPipelineModule`. */
@Module({
  providers: [IdempotencyStore, IdempotencyRepository, IdempotencyCleanup],
  exports: [IdempotencyStore, IdempotencyCleanup],
})
export class IdempotencyModule {}
