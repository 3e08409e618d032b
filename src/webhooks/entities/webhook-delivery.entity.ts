import { Column, Entity, Index, type Relation } from 'typeorm';
import {
  ChangingTenantRow,
  Counter,
  References,
  Timestamp,
  Uuid,
  Varchar,
} from '../../database/columns.js';
import { DomainEvent } from '../../events/entities/domain-event.entity.js';
import { WebhookSubscription } from './webhook-subscription.entity.js';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface AttemptLogEntry {
  attempt: number;
  at: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
}

/**
 * One event for one subscription. Its id is the `X-Service-Delivery` header, the same on
 * every attempt; the row, not Redis, is the truth of what is owed.
 */
@Entity('webhook_delivery')
@Index('IDX_webhook_delivery_subscription', ['subscriptionId', 'createdAt', 'id'])
@Index('IDX_webhook_delivery_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('IDX_webhook_delivery_event', ['eventId'])
export class WebhookDelivery extends ChangingTenantRow {
  @Uuid() subscriptionId!: string;
  @References(() => WebhookSubscription, 'subscription_id')
  subscription?: Relation<WebhookSubscription>;

  @Uuid() eventId!: string;
  @References(() => DomainEvent, 'event_id') event?: Relation<DomainEvent>;

  @Varchar(64) eventType!: string;

  @Column({
    type: 'enum',
    enum: DELIVERY_STATUSES,
    enumName: 'webhook_delivery_status',
    default: 'pending',
  })
  status!: DeliveryStatus;

  /** Finished attempts. */
  @Counter() attempts!: number;

  /** When the next attempt is due; null once finished. */
  @Timestamp({ nullable: true }) nextAttemptAt!: Date | null;

  /** A worker sending an attempt holds the delivery until then, so no attempt is sent twice. */
  @Timestamp({ nullable: true }) leaseUntil!: Date | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  attemptLog!: AttemptLogEntry[];
}
