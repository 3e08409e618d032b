import { Module } from '@nestjs/common';
import { EventsController } from './events.controller.js';

/** `GET /events`, the event types a webhook can subscribe to (`APP_ROLE` api or all). */
@Module({ controllers: [EventsController] })
export class EventsHttpModule {}
