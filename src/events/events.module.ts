import { Global, Module } from '@nestjs/common';
import { EventsService } from './events.service.js';

/** The outbox writer, available to every module that changes something events describe. */
@Global()
@Module({ providers: [EventsService], exports: [EventsService] })
export class EventsModule {}
