import { Module } from '@nestjs/common';
import { EventsController } from './events.controller.js';

@Module({ controllers: [EventsController] })
export class EventsApiModule {}
