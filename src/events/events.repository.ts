import { Injectable } from '@nestjs/common';
import { deleteInBatches } from '../database/batched-delete.js';
import { preparedSql, sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';

/** Channel the outbox relay listens on; a NOTIFY is delivered only when its transaction commits. */
export const EVENTS_CHANNEL = 'domain_events';

/** Events relayed in one transaction at most. */
export const RELAY_BATCH = 500;

/** The events, then the NOTIFY: one statement, prepared once per connection. */
const RECORD = preparedSql(
  'events.record',
  `WITH recorded AS (
     INSERT INTO domain_event (organization_id, type, data)
     SELECT $1, $2, x FROM jsonb_array_elements($3::jsonb) AS x
   )
   SELECT pg_notify('${EVENTS_CHANNEL}', '')`,
);

/** The oldest events not yet relayed that no other relay holds, locked until commit. */
const CLAIM_UNRELAYED = sql(
  'events.claimUnrelayed',
  `SELECT id, organization_id, type FROM domain_event
          WHERE relayed_at IS NULL ORDER BY created_at LIMIT ${RELAY_BATCH} FOR UPDATE SKIP LOCKED`,
);

const MARK_RELAYED = sql(
  'events.markRelayed',
  'UPDATE domain_event SET relayed_at = now() WHERE id = ANY($1::uuid[])',
);

/**
 * Relayed events older than $1 days that no pending delivery still needs, at most $2
 * (`deleteInBatches` names the batch size's parameter).
 */
const deleteRelayed = (limit: string) =>
  `DELETE FROM domain_event WHERE id IN (
           SELECT e.id FROM domain_event e
            WHERE e.relayed_at < now() - make_interval(days => $1)
              AND NOT EXISTS (SELECT 1 FROM webhook_delivery d
                               WHERE d.event_id = e.id AND d.status = 'pending')
            LIMIT ${limit})`;
sql('events.deleteRelayed', deleteRelayed('$2'));

/** An event claimed for relaying. */
export interface ClaimedEvent {
  id: string;
  organization_id: string;
  type: string;
}

/** The outbox table, `domain_event`: written by `EventsService`, read by the relay. */
@Injectable()
export class EventsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** Inserts the events in the current transaction and wakes the relay once it commits. */
  async insert(organizationId: string, type: string, data: unknown[]): Promise<void> {
    await this.transactions.manager.query(RECORD, [organizationId, type, JSON.stringify(data)]);
  }

  /** Up to `RELAY_BATCH` unrelayed events, locked for the current transaction. */
  claimUnrelayed(): Promise<ClaimedEvent[]> {
    return this.transactions.manager.query(CLAIM_UNRELAYED);
  }

  async markRelayed(ids: string[]): Promise<void> {
    await this.transactions.manager.query(MARK_RELAYED, [ids]);
  }

  /** Deletes relayed events past `days` that no pending delivery needs; returns how many. */
  deleteRelayedBefore(days: number): Promise<number> {
    return deleteInBatches(this.transactions, deleteRelayed, [days]);
  }
}
