import { Column, Entity, Index } from 'typeorm';
import { TenantRow, Timestamp, Varchar } from '../../database/columns.js';

/**
 * The outbox: a domain event, written in the same transaction as the change it describes.
 * The relay turns it into deliveries (one per matching subscription) and marks it relayed.
 */
@Entity('domain_event')
@Index('IDX_domain_event_unrelayed', ['createdAt'], { where: '"relayed_at" IS NULL' })
export class DomainEvent extends TenantRow {
  @Varchar(64) type!: string;

  /** The resource as the API returns it. */
  @Column({ type: 'jsonb' })
  data!: unknown;

  @Timestamp({ nullable: true }) relayedAt!: Date | null;
}
