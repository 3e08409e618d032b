import { Injectable } from '@nestjs/common';
import type { PaginationQuery } from '../common/pagination/pagination.js';
import { deleteInBatches } from '../database/batched-delete.js';
import { selectColumns } from '../database/entity-columns.js';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import {
  type AttemptLogEntry,
  type DeliveryStatus,
  WebhookDelivery,
} from './entities/webhook-delivery.entity.js';

/** A pending delivery this overdue has lost its Bull job (e.g. Redis restarted empty). */
const OVERDUE = '2 seconds';

/**
 * Leases delivery $1 for $2 ms if its next attempt is due and nobody holds it, with what
 * sending the attempt needs: its subscription and its event.
 */
const CLAIM_ATTEMPT = sql(
  'deliveries.claimAttempt',
  `UPDATE webhook_delivery d
          SET lease_until = now() + make_interval(secs => $2::double precision / 1000)
         FROM webhook_subscription s, domain_event e
        WHERE d.id = $1 AND d.status = 'pending' AND d.next_attempt_at <= now() + interval '1 second'
          AND (d.lease_until IS NULL OR d.lease_until < now())
          AND s.id = d.subscription_id AND e.id = d.event_id
       RETURNING d.attempts, d.event_type, d.subscription_id, s.url, s.secret, s.deleted_at, s.active,
                 e.id AS event_id, e.organization_id, e.created_at AS event_created_at, e.data`,
);

/**
 * Logs attempt $3 of delivery $1 and gives up its lease. A pending delivery takes status $2,
 * with the next attempt in $4 ms (none when null); one that stopped while the attempt was in
 * flight (its subscription deleted, or redelivered) keeps its status and gets no next attempt,
 * but its log still shows what was sent.
 */
const RECORD_ATTEMPT = sql(
  'deliveries.recordAttempt',
  `UPDATE webhook_delivery
          SET status = CASE WHEN status = 'pending' THEN $2::webhook_delivery_status ELSE status END,
              attempts = attempts + 1, lease_until = NULL, updated_at = now(),
              attempt_log = attempt_log || $3::jsonb,
              next_attempt_at = CASE WHEN status <> 'pending' OR $4::double precision IS NULL THEN NULL
                                     ELSE now() + make_interval(secs => $4::double precision / 1000) END
        WHERE id = $1
       RETURNING status`,
);

/** One pending delivery of each event $1 to each active subscription that wants it. */
const CREATE_FOR_EVENTS = sql(
  'deliveries.createForEvents',
  `INSERT INTO webhook_delivery (organization_id, subscription_id, event_id, event_type, status, next_attempt_at)
         SELECT e.organization_id, s.id, e.id, e.type, 'pending', now()
           FROM domain_event e
           JOIN webhook_subscription s
             ON s.organization_id = e.organization_id AND s.active AND s.deleted_at IS NULL
            AND (e.type = ANY(s.events) OR '*' = ANY(s.events))
          WHERE e.id = ANY($1::uuid[])
         RETURNING id`,
);

/** Pending deliveries overdue and not leased: their Bull job was lost. */
const OVERDUE_DELIVERIES = sql(
  'deliveries.overdue',
  `SELECT id, attempts FROM webhook_delivery
        WHERE status = 'pending' AND next_attempt_at < now() - interval '${OVERDUE}'
          AND (lease_until IS NULL OR lease_until < now())
        ORDER BY next_attempt_at LIMIT 1000`,
);

/** Stops the pending deliveries to subscription $1. */
const CANCEL_PENDING = sql(
  'deliveries.cancelPending',
  `UPDATE webhook_delivery SET status = 'failed', next_attempt_at = NULL, updated_at = now()
          WHERE subscription_id = $1 AND status = 'pending'`,
);

/**
 * Ends the retries of delivery $1 of organization $2 if it is still pending (CONTRACT §7: it is
 * being redelivered). A Bull job or the sweeper finds it no longer pending and sends nothing; an
 * attempt in flight is still logged (`RECORD_ATTEMPT`) but schedules no other.
 */
const END_RETRIES = sql(
  'deliveries.endRetries',
  `UPDATE webhook_delivery SET status = 'failed', next_attempt_at = NULL, updated_at = now()
          WHERE id = $1 AND organization_id = $2 AND status = 'pending'`,
);

/** Finished deliveries older than $1 days, at most $2 (`deleteInBatches`' batch size). */
const deleteFinished = (limit: string) =>
  `DELETE FROM webhook_delivery WHERE id IN (
           SELECT id FROM webhook_delivery
            WHERE status <> 'pending' AND updated_at < now() - make_interval(days => $1)
            LIMIT ${limit})`;
sql('deliveries.deleteFinished', deleteFinished('$2'));

/** Every column of `webhook_delivery`, by the entity's property names (a test checks them). */
export const DELIVERY_COLUMNS = [
  'id',
  'organizationId',
  'subscriptionId',
  'eventId',
  'eventType',
  'status',
  'attempts',
  'nextAttemptAt',
  'leaseUntil',
  'attemptLog',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof WebhookDelivery>;

/** Subscription $2's delivery $1. */
const FIND = sql(
  'deliveries.find',
  `SELECT ${selectColumns(DELIVERY_COLUMNS)} FROM webhook_delivery
    WHERE id = $1 AND subscription_id = $2`,
);

/** Subscription $1's deliveries with status $2 and event type $3 (each left out when null), newest first. */
const LIST = pagedSql('deliveries.list', {
  select: selectColumns(DELIVERY_COLUMNS),
  from: 'webhook_delivery',
  where: `subscription_id = $1
          AND ($2::webhook_delivery_status IS NULL OR status = $2)
          AND ($3::varchar IS NULL OR event_type = $3)`,
  orderBy: 'created_at DESC, id DESC',
});

/** A delivery whose attempt this worker holds the lease of, with what sending it needs. */
export interface ClaimedAttempt {
  attempts: number;
  event_type: string;
  subscription_id: string;
  url: string;
  secret: string;
  deleted_at: Date | null;
  active: boolean;
  event_id: string;
  organization_id: string;
  event_created_at: Date;
  data: unknown;
}

/** The `webhook_delivery` table: each delivery, its lease and its attempt log. */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly transactions: Transactions) {}

  /** Leases the delivery's due attempt for `leaseMs`; commits at once, before the send. */
  async claimAttempt(deliveryId: string, leaseMs: number): Promise<ClaimedAttempt | null> {
    const [claimed]: [ClaimedAttempt[], number] = await this.transactions.outside.query(
      CLAIM_ATTEMPT,
      [deliveryId, leaseMs],
    );
    return claimed[0] ?? null;
  }

  /** Logs an attempt of the delivery; true when it is still pending afterwards (to retry). */
  async recordAttempt(
    deliveryId: string,
    status: DeliveryStatus,
    retryInMs: number | null,
    entry: AttemptLogEntry,
  ): Promise<boolean> {
    const [rows]: [Array<{ status: DeliveryStatus }>, number] =
      await this.transactions.outside.query(RECORD_ATTEMPT, [
        deliveryId,
        status,
        JSON.stringify([entry]),
        retryInMs,
      ]);
    return rows[0]?.status === 'pending';
  }

  /** Creates the deliveries of these events, in the current transaction; returns their ids. */
  async createForEvents(eventIds: string[]): Promise<string[]> {
    const inserted: Array<{ id: string }> = await this.transactions.manager.query(
      CREATE_FOR_EVENTS,
      [eventIds],
    );
    return inserted.map((delivery) => delivery.id);
  }

  /** Up to 1,000 deliveries whose Bull job went missing, most overdue first. */
  overdue(): Promise<Array<{ id: string; attempts: number }>> {
    return this.transactions.manager.query(OVERDUE_DELIVERIES);
  }

  async cancelPending(subscriptionId: string): Promise<void> {
    await this.transactions.manager.query(CANCEL_PENDING, [subscriptionId]);
  }

  /** Deletes deliveries finished more than `days` ago; returns how many. */
  deleteFinishedBefore(days: number): Promise<number> {
    return deleteInBatches(this.transactions, deleteFinished, [days]);
  }

  /** A page of a subscription's deliveries, newest first, and how many match. */
  async page(
    subscriptionId: string,
    filter: { status?: DeliveryStatus; eventType?: string },
    page: PaginationQuery,
  ): Promise<[WebhookDelivery[], number]> {
    const manager = this.transactions.manager;
    const [rows, total] = await fetchPage<WebhookDelivery>(
      manager,
      LIST,
      [subscriptionId, filter.status || null, filter.eventType || null],
      page,
    );
    return [rows.map((row) => manager.create(WebhookDelivery, row)), total];
  }

  async find(subscriptionId: string, id: string): Promise<WebhookDelivery | null> {
    const manager = this.transactions.manager;
    const [row]: WebhookDelivery[] = await manager.query(FIND, [id, subscriptionId]);
    return row ? manager.create(WebhookDelivery, row) : null;
  }

  /** Ends the delivery's retries, in the current transaction, if it is still pending. */
  async endRetries(organizationId: string, id: string): Promise<void> {
    await this.transactions.manager.query(END_RETRIES, [id, organizationId]);
  }

  /** A new pending delivery of `original`'s event to the same subscription, due now. */
  insertRedelivery(organizationId: string, original: WebhookDelivery): Promise<WebhookDelivery> {
    const manager = this.transactions.manager;
    return manager.save(
      manager.create(WebhookDelivery, {
        organizationId,
        subscriptionId: original.subscriptionId,
        eventId: original.eventId,
        eventType: original.eventType,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: new Date(),
        attemptLog: [],
      }),
    );
  }
}
