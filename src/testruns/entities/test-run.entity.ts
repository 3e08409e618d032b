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
import { Build, SOURCES, type Source } from '../../builds/entities/build.entity.js';
import { Project } from '../../projects/entities/project.entity.js';
import { Release } from '../../releases/entities/release.entity.js';

export const TEST_RUN_STATUSES = ['in_progress', 'submitted', 'completed'] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];

@Entity('test_run')
@Index('IDX_test_run_organization_created', ['organizationId', 'createdAt', 'id'])
@Index('IDX_test_run_project_created', ['projectId', 'createdAt'])
@Index('IDX_test_run_build', ['buildId'])
@Index('IDX_test_run_release', ['releaseId'])
@Index('UQ_test_run_project_position', ['projectId', 'position'], { unique: true })
export class TestRun {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  organizationId!: string;

  @Column({ type: 'uuid' })
  projectId!: string;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Relation<Project>;

  @Column({ type: 'uuid', nullable: true })
  buildId!: string | null;

  @ManyToOne(() => Build, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'build_id' })
  build?: Relation<Build>;

  @Column({ type: 'uuid', nullable: true })
  releaseId!: string | null;

  @ManyToOne(() => Release, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'release_id' })
  release?: Relation<Release>;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /**
   * The run's place among its project's runs in creation order (1, 2, 3…, from
   * `project.runs_created`): the slot the run's outcomes take in `case_outcomes`. Taken at the
   * end of the transaction that creates the run, so null only inside it.
   */
  @Column({ type: 'integer', nullable: true })
  position!: number | null;

  @Column({
    type: 'enum',
    enum: TEST_RUN_STATUSES,
    enumName: 'test_run_status',
    default: 'in_progress',
  })
  status!: TestRunStatus;

  @Column({ type: 'enum', enum: SOURCES, enumName: 'source' })
  source!: Source;

  // Counts of each case's current result, kept in the same transaction as every batch.
  @Column({ type: 'integer', default: 0 })
  total!: number;

  @Column({ type: 'integer', default: 0 })
  passed!: number;

  @Column({ type: 'integer', default: 0 })
  failed!: number;

  @Column({ type: 'integer', default: 0 })
  blocked!: number;

  @Column({ type: 'integer', default: 0 })
  skipped!: number;

  @Column({ type: 'integer', default: 0 })
  retest!: number;

  @Column({ type: 'integer', default: 0 })
  untested!: number;

  @Column({ type: 'integer', default: 0 })
  flaky!: number;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  submittedAt!: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  completedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
