import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from '../../organizations/entities/organization.entity.js';

/** Calls an organization made in one billing period; the monthly quota's source of truth. */
@Entity('organization_usage')
export class OrganizationUsage {
  @PrimaryColumn({ type: 'uuid' })
  organizationId!: string;

  @PrimaryColumn({ type: 'timestamptz', precision: 3 })
  periodStart!: Date;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Column({ type: 'integer', default: 0 })
  calls!: number;
}
