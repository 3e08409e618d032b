import { Column, Entity, Index, type Relation, Unique } from 'typeorm';
import { ChangingTenantRow, References, Uuid, Varchar } from '../../database/columns.js';
import { Organization } from '../../tenants/organization.entity.js';
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
export class Build extends ChangingTenantRow {
  @References(() => Organization, 'organization_id') organization?: Relation<Organization>;

  @Uuid({ nullable: true }) projectId!: string | null;
  @References(() => Project, 'project_id', 'SET NULL') project?: Relation<Project>;

  @Uuid({ nullable: true }) releaseId!: string | null;
  @References(() => Release, 'release_id', 'SET NULL') release?: Relation<Release>;

  @Varchar(255) name!: string;
  @Varchar(255, { nullable: true }) buildNumber!: string | null;
  @Varchar(64, { nullable: true }) commitSha!: string | null;
  @Varchar(255, { nullable: true }) branch!: string | null;
  @Varchar(2048, { nullable: true }) repoUrl!: string | null;

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
}
