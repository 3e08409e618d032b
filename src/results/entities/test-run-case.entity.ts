import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Timestamp } from '../../database/columns.js';
import { RESULT_STATUSES, type ResultStatus } from './result-status.js';

/**
 * Each slot's current result in a run: the pointer to its latest stored result, with its
 * status copied in. A slot is a test case in one configuration (CONTRACT §13); the slot with
 * no configuration has `configuration` '' (a configuration is never blank), so the key needs no
 * NULL and the API shows it as null. A batch upserts its cases here in one statement, which also tells it what
 * each replaced; only unindexed columns change, so updates stay cheap (HOT) and the results
 * table itself is append-only.
 *
 * Each row belongs to its run and its case, and goes with either. Those links are checked
 * once per statement by triggers (migration `ReferencesCheckedPerStatement`): a new run's
 * rows are bulk-loaded, and a per-row foreign key cost a lookup and a lock for each.
 */
@Entity('test_run_case')
@Index('IDX_test_run_case_case', ['testCaseId'])
export class TestRunCase {
  @PrimaryColumn({ type: 'uuid' })
  testRunId!: string;

  @PrimaryColumn({ type: 'uuid' })
  testCaseId!: string;

  @PrimaryColumn({ type: 'varchar', length: 100, default: '' })
  configuration!: string;

  @Column({ type: 'uuid' })
  resultId!: string;

  @Column({ type: 'enum', enum: RESULT_STATUSES, enumName: 'result_status' })
  status!: ResultStatus;

  /**
   * When the current result was stored (its `created_at`): a release's progress takes each
   * slot's latest result across the release's runs from these rows alone, read by run,
   * without a look-up of every result.
   */
  @Timestamp()
  resultCreatedAt!: Date;

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
