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
import { Project } from '../../projects/entities/project.entity.js';

export const RELEASE_STATUSES = ['planned', 'in_progress', 'completed'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

@Entity('release')
@Index('IDX_release_project_created', ['projectId', 'createdAt'])
@Index('IDX_release_organization', ['organizationId', 'id'])
export class Release {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @Column({ type: 'uuid' })
  projectId!: string;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  version!: string | null;

  @Column({ type: 'enum', enum: RELEASE_STATUSES, enumName: 'release_status', default: 'planned' })
  status!: ReleaseStatus;

  @Column({ type: 'date', nullable: true })
  targetDate!: string | null;

  /** Set when the release is completed. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  releasedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
