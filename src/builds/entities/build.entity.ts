import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { Organization } from '../../organizations/entities/organization.entity.js';
import { Project } from '../../projects/entities/project.entity.js';
import { Release } from '../../releases/entities/release.entity.js';

export const BUILD_STATUSES = ['planned', 'assigned'] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];
export const SOURCES = ['api', 'ui'] as const;
export type Source = (typeof SOURCES)[number];

@Entity('build')
/** The default list order (newest first) and every list filter start from the organization. */
@Index('IDX_build_organization_created', ['organizationId', 'createdAt', 'id'])
@Index('IDX_build_organization_branch', ['organizationId', 'branch', 'createdAt'])
@Index('IDX_build_organization_commit', ['organizationId', 'commitSha'])
@Index('IDX_build_organization_number', ['organizationId', 'buildNumber'])
@Index('IDX_build_release', ['releaseId', 'createdAt'])
@Index('IDX_build_project', ['projectId', 'createdAt'])
/**
 * The release-assignment queue: one build per position (null for builds not in the queue).
 * Deferred, so shifting the queue up after a build leaves it is checked at commit.
 */
@Unique('UQ_build_queue_position', ['organizationId', 'queuePosition'], {
  deferrable: 'INITIALLY DEFERRED',
})
export class Build {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Relation<Organization>;

  @Column({ type: 'uuid', nullable: true })
  projectId!: string | null;

  @ManyToOne(() => Project, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;

  @Column({ type: 'uuid', nullable: true })
  releaseId!: string | null;

  @ManyToOne(() => Release, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'release_id' })
  release?: Relation<Release>;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  buildNumber!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  commitSha!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  branch!: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  repoUrl!: string | null;

  @Column({ type: 'enum', enum: BUILD_STATUSES, enumName: 'build_status' })
  status!: BuildStatus;

  @Column({ type: 'enum', enum: SOURCES, enumName: 'source' })
  source!: Source;

  /**
   * 1-based place in the organization's release-assignment queue while planned, else null.
   * Kept dense: creation appends under a per-organization lock; leaving shifts the rest up.
   */
  @Column({ type: 'integer', nullable: true })
  queuePosition!: number | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
