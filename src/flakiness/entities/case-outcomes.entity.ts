import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Counter, Uuid } from '../../database/columns.js';

/**
 * A test case's outcome, in one configuration, in each of its project's runs, one character per run, kept by the
 * writers of results in their own transactions (`case-outcomes.repository.ts`) so that the flaky list
 * reads one short row per case instead of sorting every result of the project.
 *
 * Slot `i` (1-based) of `outcomes` is the case's outcome in the project's run at position
 * `base + i`: `P` passed, `R` passed after retries, `F` failed, `.` anything else (no result,
 * another status, or a run not yet submitted or completed). At most `OUTCOME_SLOTS` slots are
 * kept: the oldest go first, and `base` grows. The table leaves half of each page free
 * (fillfactor 50, set by its migration) so that rewriting a row stays on its page.
 */
@Entity('case_outcomes')
@Index('IDX_case_outcomes_project', ['projectId'])
export class CaseOutcomeSlots {
  /**
   * Its case. Not a foreign key: rows are written only from the run's current results, which
   * name existing cases, and go with their case by trigger (migration
   * `CaseOutcomesFollowTheirCase`).
   */
  @PrimaryColumn({ type: 'uuid' })
  testCaseId!: string;

  /** The slot's configuration (CONTRACT §13): '' for none, as in `test_run_case`. */
  @PrimaryColumn({ type: 'varchar', length: 100, default: '' })
  configuration!: string;

  @Uuid() projectId!: string;
  @Uuid() organizationId!: string;
  @Counter() base!: number;

  @Column({ type: 'text' })
  outcomes!: string;
}
