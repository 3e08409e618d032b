import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The outbox: a domain event, written in the same transaction as the change it describes.
 * The relay turns it into deliveries (one per matching subscription) and marks it relayed.
 */
@Entity('domain_event')
@Index('IDX_domain_event_unrelayed', ['createdAt'], { where: '"relayed_at" IS NULL' })
export class DomainEvent {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @Column({ type: 'varchar', length: 64 })
  type!: string;

  /** The resource as the API returns it. */
  @Column({ type: 'jsonb' })
  data!: unknown;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  relayedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
