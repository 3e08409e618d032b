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
import { Organization } from '../../organizations/entities/organization.entity.js';

@Entity('project')
@Index('UQ_project_organization_key', ['organizationId', 'key'], { unique: true })
@Index('IDX_project_organization_created', ['organizationId', 'createdAt'])
export class Project {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Short code, unique within the organization (e.g. `WEB`). */
  @Column({ type: 'varchar', length: 32 })
  key!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /**
   * The quality gate's `min_pass_rate` (CONTRACT §12): passed / executed must reach it; null
   * skips the rule.
   */
  @Column({ type: 'double precision', nullable: true })
  gateMinPassRate!: number | null;

  /** The quality gate's `no_missing_tests`: a case of the baseline absent now fails it. */
  @Column({ type: 'boolean', default: false })
  gateForbidMissingTests!: boolean;

  /**
   * How many runs the project has had: a new run takes the next number as its `position`,
   * counted in the run's own transaction (the row stays locked until it commits).
   */
  @Column({ type: 'integer', default: 0 })
  runsCreated!: number;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
