import { Global, Module } from '@nestjs/common';
import { EventsRepository } from './events.repository.js';
import { EventsService } from './events.service.js';

/**
 * The outbox, in every role: `EventsService` for every module that changes something events
 * describe, and the outbox's table for the webhook relay (`WebhookWorkerModule`) that empties
 * it. `GET /events` is `EventsHttpModule`'s.
 */
@Global()
@Module({
  providers: [EventsService, EventsRepository],
  exports: [EventsService, EventsRepository],
})
export class OutboxModule {}
