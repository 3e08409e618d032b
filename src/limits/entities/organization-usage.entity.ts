import { Entity, PrimaryColumn, type Relation } from 'typeorm';
import { Counter, References } from '../../database/columns.js';
import { Organization } from '../../tenants/organization.entity.js';

/** Calls an organization made in one billing period; the monthly quota's source of truth. */
@Entity('organization_usage')
export class OrganizationUsage {
  @PrimaryColumn({ type: 'uuid' })
  organizationId!: string;

  @PrimaryColumn({ type: 'timestamptz', precision: 3 })
  periodStart!: Date;

  @References(() => Organization, 'organization_id') organization?: Relation<Organization>;

  @Counter() calls!: number;
}
