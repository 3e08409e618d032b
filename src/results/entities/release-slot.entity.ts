import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Timestamp, Uuid } from '../../database/columns.js';
import { RESULT_STATUSES, type ResultStatus } from './result-status.js';

/**
 * Each slot (a test case in one configuration, CONTRACT §13) of a release, with its latest
 * current result across the release's runs (by storage time, then id: CONTRACT §6), kept by
 * the writers of results in their own transactions (`release-slots.repository.ts`), the way
 * `case_outcomes` keeps the flaky list's summary. A release's progress counts these rows by
 * status, so it reads as many rows as the release has slots, whatever the release's runs and
 * the table hold (issue 29: 2.2 s at 2M results when it read the runs' rows).
 *
 * The row names the run and result it comes from: a run deleted by retention takes its rows
 * back to the latest of the release's other runs (or away). The key starts with the
 * organization, the distribution key a sharded PostgreSQL (Citus) would need
 * (`docs/scaling.md`); every read names it anyway.
 *
 * Progress counts a release's rows by status through `IDX_release_slot_status`: its own
 * entries only (an index-only scan once VACUUM has marked the pages visible), where the key
 * alone let the planner, with statistics, scan the whole table for a release that held a
 * fifth of it. A result that keeps its slot's status changes no indexed column (a HOT update).
 *
 * No foreign keys: a row is written for every result of a release's runs, and a per-row key
 * check costs a look-up and a lock each (`ReferencesCheckedPerStatement`). Releases and test
 * cases are never deleted by the service; runs only by retention, which keeps this table.
 */
@Entity('release_slot')
@Index('IDX_release_slot_status', ['organizationId', 'releaseId', 'status'])
export class ReleaseSlot {
  @PrimaryColumn({ type: 'uuid' })
  organizationId!: string;

  @PrimaryColumn({ type: 'uuid' })
  releaseId!: string;

  @PrimaryColumn({ type: 'uuid' })
  testCaseId!: string;

  /** The slot's configuration: '' for none, as in `test_run_case`. */
  @PrimaryColumn({ type: 'varchar', length: 100, default: '' })
  configuration!: string;

  /** The run whose current result this is. */
  @Uuid() testRunId!: string;

  @Uuid() resultId!: string;

  @Column({ type: 'enum', enum: RESULT_STATUSES, enumName: 'result_status' })
  status!: ResultStatus;

  /** When that result was stored (its `created_at`), which decides the latest. */
  @Timestamp() resultCreatedAt!: Date;
}
