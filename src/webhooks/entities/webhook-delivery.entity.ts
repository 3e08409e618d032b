import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
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
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @Column({ type: 'uuid' })
  subscriptionId!: string;

  @ManyToOne(() => WebhookSubscription, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscription_id' })
  subscription?: Relation<WebhookSubscription>;

  @Column({ type: 'uuid' })
  eventId!: string;

  @ManyToOne(() => DomainEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Relation<DomainEvent>;

  @Column({ type: 'varchar', length: 64 })
  eventType!: string;

  @Column({
    type: 'enum',
    enum: DELIVERY_STATUSES,
    enumName: 'webhook_delivery_status',
    default: 'pending',
  })
  status!: DeliveryStatus;

  /** Finished attempts. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** When the next attempt is due; null once finished. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  nextAttemptAt!: Date | null;

  /** A worker sending an attempt holds the delivery until then, so no attempt is sent twice. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  leaseUntil!: Date | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  attemptLog!: AttemptLogEntry[];

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
