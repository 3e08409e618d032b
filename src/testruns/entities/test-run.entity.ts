import { Column, Entity, Index, type Relation } from 'typeorm';
import { Build, SOURCES, type Source } from '../../builds/entities/build.entity.js';
import {
  ChangingTenantRow,
  Counter,
  References,
  Timestamp,
  Uuid,
  Varchar,
} from '../../database/columns.js';
import { Project } from '../../projects/entities/project.entity.js';
import { Release } from '../../releases/entities/release.entity.js';

export const TEST_RUN_STATUSES = ['in_progress', 'submitted', 'completed'] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];

@Entity('test_run')
@Index('IDX_test_run_organization_created', ['organizationId', 'createdAt', 'id'])
@Index('IDX_test_run_project_created', ['projectId', 'createdAt'])
// A project's runs by name, then age: the overview's latest run of each name, and its trends.
@Index('IDX_test_run_project_name_created', ['projectId', 'name', 'createdAt', 'id'])
@Index('IDX_test_run_build', ['buildId'])
@Index('IDX_test_run_release', ['releaseId'])
@Index('UQ_test_run_project_position', ['projectId', 'position'], { unique: true })
export class TestRun extends ChangingTenantRow {
  @Uuid() projectId!: string;
  @References(() => Project, 'project_id') project?: Relation<Project>;

  @Uuid({ nullable: true }) buildId!: string | null;
  @References(() => Build, 'build_id', 'SET NULL') build?: Relation<Build>;

  @Uuid({ nullable: true }) releaseId!: string | null;
  @References(() => Release, 'release_id', 'SET NULL') release?: Relation<Release>;

  @Varchar(255) name!: string;

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
  @Counter() total!: number;
  @Counter() passed!: number;
  @Counter() failed!: number;
  @Counter() blocked!: number;
  @Counter() skipped!: number;
  @Counter() retest!: number;
  @Counter() untested!: number;
  @Counter() flaky!: number;

  @Timestamp({ nullable: true }) submittedAt!: Date | null;
  @Timestamp({ nullable: true }) completedAt!: Date | null;

  /**
   * The quality gate's verdict when the run was last completed (CONTRACT §12), null until its
   * first completion: kept through a reopening, renewed by the next completion, while
   * `GET …/gate` judges again with today's quarantine.
   */
  @Column({ type: 'boolean', nullable: true })
  gatePassed!: boolean | null;

  @Timestamp({ nullable: true }) gateEvaluatedAt!: Date | null;

  /**
   * The configurations of the run's slots (CONTRACT §13), sorted, none for the slots without
   * one: added by each result batch with its counts (a slot never leaves its run), so the runs
   * list shows them without reading the run's slots.
   */
  @Column({ type: 'varchar', length: 100, array: true, default: () => "'{}'" })
  configurations!: string[];
}
