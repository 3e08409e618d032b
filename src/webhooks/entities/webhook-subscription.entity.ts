import { Column, Entity, Index, type Relation } from 'typeorm';
import { ChangingTenantRow, DeletedAt, Flag, References, Varchar } from '../../database/columns.js';
import { Organization } from '../../tenants/organization.entity.js';

@Entity('webhook_subscription')
@Index('IDX_webhook_subscription_organization', ['organizationId', 'createdAt'])
export class WebhookSubscription extends ChangingTenantRow {
  @References(() => Organization, 'organization_id') organization?: Relation<Organization>;

  @Varchar(2048) url!: string;

  /** Event types, or `['*']` for all. */
  @Column({ type: 'text', array: true })
  events!: string[];

  @Varchar(1000, { nullable: true }) description!: string | null;

  /** `whsec_` + base64 of 32 random bytes; signs every delivery, shown once at creation. */
  @Varchar(128, { select: false }) secret!: string;

  @Flag(true) active!: boolean;

  @DeletedAt() deletedAt!: Date | null;
}
