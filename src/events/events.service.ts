import { Injectable } from '@nestjs/common';
import { prepared } from '../database/preparing-client.js';
import { Transactions } from '../database/transactions.js';
import type { EventType } from './event-types.js';

/** Channel the outbox relay listens on; a NOTIFY is delivered only when its transaction commits. */
export const EVENTS_CHANNEL = 'domain_events';

/** The events, then the NOTIFY: one statement, prepared once per connection. */
const RECORD = prepared(
  `WITH recorded AS (
     INSERT INTO domain_event (organization_id, type, data)
     SELECT $1, $2, x FROM jsonb_array_elements($3::jsonb) AS x
   )
   SELECT pg_notify('${EVENTS_CHANNEL}', '')`,
);

/**
 * Writes domain events to the outbox in the caller's transaction: an event exists exactly
 * when the change it describes committed. The NOTIFY wakes the relay right after commit.
 */
@Injectable()
export class EventsService {
  constructor(private readonly transactions: Transactions) {}

  async record(organizationId: string, type: EventType, data: unknown): Promise<void> {
    await this.recordMany(organizationId, type, [data]);
  }

  async recordMany(organizationId: string, type: EventType, data: unknown[]): Promise<void> {
    if (data.length === 0) return;
    await this.transactions.manager.query(RECORD, [organizationId, type, JSON.stringify(data)]);
  }
}
