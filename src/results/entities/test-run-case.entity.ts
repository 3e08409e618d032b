import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { TestCase } from '../../projects/entities/test-case.entity.js';
import { TestRun } from '../../testruns/entities/test-run.entity.js';
import { RESULT_STATUSES, type ResultStatus } from './result-status.js';

/**
 * Each case's current result in a run: the pointer to its latest stored result, with its
 * status copied in. A batch upserts its cases here in one statement, which also tells it what
 * each replaced; only unindexed columns change, so updates stay cheap (HOT) and the results
 * table itself is append-only.
 */
@Entity('test_run_case')
@Index('IDX_test_run_case_case', ['testCaseId'])
export class TestRunCase {
  @PrimaryColumn({ type: 'uuid' })
  testRunId!: string;

  @PrimaryColumn({ type: 'uuid' })
  testCaseId!: string;

  @ManyToOne(() => TestRun, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'test_run_id' })
  testRun?: Relation<TestRun>;

  @ManyToOne(() => TestCase, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'test_case_id' })
  testCase?: Relation<TestCase>;

  @Column({ type: 'uuid' })
  resultId!: string;

  @Column({ type: 'enum', enum: RESULT_STATUSES, enumName: 'result_status' })
  status!: ResultStatus;

  @Column({ type: 'boolean' })
  flaky!: boolean;

  /**
   * What the last write replaced (null when it created the row): an upsert can only return
   * the new row, so it keeps the old status here to tell the batch, atomically under the
   * row's lock, which counts to take back.
   */
  @Column({ type: 'enum', enum: RESULT_STATUSES, enumName: 'result_status', nullable: true })
  replacedStatus!: ResultStatus | null;

  @Column({ type: 'boolean', nullable: true })
  replacedFlaky!: boolean | null;
}
