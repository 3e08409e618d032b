import { Column, Entity, Index, type Relation } from 'typeorm';
import {
  ChangingTenantRow,
  Counter,
  References,
  Timestamp,
  Uuid,
  Varchar,
} from '../../database/columns.js';
import { Project } from '../../projects/entities/project.entity.js';

export const RELEASE_STATUSES = ['planned', 'in_progress', 'completed'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

@Entity('release')
@Index('IDX_release_project_created', ['projectId', 'createdAt'])
@Index('IDX_release_organization', ['organizationId', 'id'])
export class Release extends ChangingTenantRow {
  @Uuid() projectId!: string;
  @References(() => Project, 'project_id') project?: Relation<Project>;

  @Varchar(255) name!: string;
  @Varchar(255, { nullable: true }) version!: string | null;

  @Column({ type: 'enum', enum: RELEASE_STATUSES, enumName: 'release_status', default: 'planned' })
  status!: ReleaseStatus;

  @Column({ type: 'date', nullable: true })
  targetDate!: string | null;

  /** Set when the release is completed. */
  @Timestamp({ nullable: true }) releasedAt!: Date | null;

  /** Its runs deleted by their project's retention: its progress says how many are gone. */
  @Counter() runsDeleted!: number;
}
