import { Entity, JoinColumn, OneToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Counter } from '../../database/columns.js';
import { Organization } from '../../tenants/organization.entity.js';

/**
 * How many builds an organization has, kept exact by a database trigger on `build` (see the
 * CountBuildsPerOrganization migration), so the unfiltered build list's `total` is a lookup
 * instead of a count over every build.
 */
@Entity('build_count')
export class BuildCount {
  @PrimaryColumn({ type: 'uuid' })
  organizationId!: string;

  @OneToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Counter() total!: number;
}
