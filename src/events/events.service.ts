import { Injectable } from '@nestjs/common';
import type { EventType } from './event-types.js';
import { EventsRepository } from './events.repository.js';

/**
 * Writes domain events to the outbox in the caller's transaction: an event exists exactly
 * when the change it describes committed. The NOTIFY wakes the relay right after commit.
 */
@Injectable()
export class EventsService {
  constructor(private readonly events: EventsRepository) {}

  async record(organizationId: string, type: EventType, data: unknown): Promise<void> {
    await this.recordMany(organizationId, type, [data]);
  }

  async recordMany(organizationId: string, type: EventType, data: unknown[]): Promise<void> {
    if (data.length === 0) return;
    await this.events.insert(organizationId, type, data);
  }
}
