import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import {
  Counter,
  Flag,
  OptionalText,
  TenantRow,
  Timestamp,
  Uuid,
  Varchar,
} from '../../database/columns.js';
import type { AttemptResponse } from '../stored-result.js';
import { RESULT_STATUSES, type ResultStatus } from './result-status.js';

/**
 * One execution result. Every result is kept (history, append-only); the latest one per
 * case and run is the case's current result (`test_run_case`), and only that one counts in
 * the run's `counts`.
 *
 * Every result belongs to its case's row in its run (`test_run_case`, written first in the
 * same transaction), and through it to the run and the case; deleting either removes its
 * results. The link is checked once per statement by triggers (migration
 * `ReferencesCheckedPerStatement`), not by a per-row foreign key.
 */
@Entity('test_result')
@Index('IDX_test_result_run_created', ['testRunId', 'createdAt', 'id'])
@Index('IDX_test_result_run_case', ['testRunId', 'testCaseId'])
// A run's failing results by cause (only they have a signature), with their slot and id: the
// overview reads the causes that recur from this index alone.
@Index(
  'IDX_test_result_run_signature',
  ['testRunId', 'signature', 'testCaseId', 'configuration', 'id'],
  { where: '"signature" IS NOT NULL' },
)
export class TestResult extends TenantRow {
  /** In the key: the table is partitioned by it (by month of the run, see `partitions/`). */
  @PrimaryColumn({ type: 'uuid' }) testRunId!: string;
  @Uuid() testCaseId!: string;

  @Column({ type: 'enum', enum: RESULT_STATUSES, enumName: 'result_status' })
  status!: ResultStatus;

  @Column({ type: 'integer', nullable: true })
  durationMs!: number | null;

  @OptionalText() message!: string | null;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  defects!: string[];

  /** The JUnit `type` of a `<failure>`/`<error>`, or sent in JSON (CONTRACT §12). */
  @OptionalText()
  failureType!: string | null;

  /** The failure's text (at most 65,536 characters, cut between code points). */
  @OptionalText()
  stackTrace!: string | null;

  /**
   * 16 hex characters naming the failure's cause (`failure-signature.ts`): the same error in
   * another run or case has the same one. Null unless the status is failed or blocked.
   */
  @Varchar(16, { nullable: true })
  signature!: string | null;

  /** Failed attempts before the final status (test retries, Surefire reruns). */
  @Counter() retries!: number;

  /** Passed only after failing: `passed` with `retries` > 0. */
  @Flag(false) flaky!: boolean;

  @Timestamp({ nullable: true }) executedAt!: Date | null;

  /** The environment it ran in (CONTRACT §13); '' for none, as in `test_run_case`. */
  @Varchar(100, { default: '' })
  configuration!: string;

  /**
   * The earlier attempts of the same execution, oldest first (CONTRACT §13), as the API shows
   * them; null for none (most results), which the API shows as [].
   */
  @Column({ type: 'jsonb', nullable: true })
  attempts!: AttemptResponse[] | null;

  /** Storage order within a run: "latest" means the highest sequence. */
  @Column({ type: 'bigint', generated: 'increment' })
  seq!: string;
}
