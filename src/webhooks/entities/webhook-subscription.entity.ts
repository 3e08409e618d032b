import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { Organization } from '../../organizations/entities/organization.entity.js';

@Entity('webhook_subscription')
@Index('IDX_webhook_subscription_organization', ['organizationId', 'createdAt'])
export class WebhookSubscription {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** Event types, or `['*']` for all. */
  @Column({ type: 'text', array: true })
  events!: string[];

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description!: string | null;

  /** `whsec_` + base64 of 32 random bytes; signs every delivery, shown once at creation. */
  @Column({ type: 'varchar', length: 128, select: false })
  secret!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;

  @DeleteDateColumn({ type: 'timestamptz', precision: 3 })
  deletedAt!: Date | null;
}
