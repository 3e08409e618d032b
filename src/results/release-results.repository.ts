import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { ResultStatus } from './entities/result-status.js';

/**
 * Each slot (case and configuration, CONTRACT §13) of each of releases $2 (organization $1)
 * once, by its latest stored result across the release's runs (storage time, then id: a
 * failure in one configuration is not hidden by a later pass in another), counted by status.
 *
 * Read from `release_slot`, which the writers of results keep (`release-slots.repository.ts`):
 * the release's own rows, through `IDX_release_slot_status` (organization, release, status),
 * one per slot. Its
 * cost follows the release's slots, not its runs nor the table (issue 29: reading the runs'
 * rows and grouping them took 2.2/4.1 s p50/p99 at 2M results, 20 runs of 20,000 cases).
 */
export const LATEST_STATUS_COUNTS = sql(
  'results.releasesLatestStatusCounts',
  `SELECT s.release_id, s.status, count(*)::int AS n
     FROM release_slot s
    WHERE s.organization_id = $1 AND s.release_id = ANY($2::uuid[])
    GROUP BY s.release_id, s.status`,
);

/**
 * How many of each release's slots ($2, organization $1) whose case is one of $3 have a
 * failed or blocked latest result (as `LATEST_STATUS_COUNTS` finds it).
 */
const LATEST_FAILING_AMONG = sql(
  'results.releasesLatestFailingAmong',
  `SELECT s.release_id, count(*)::int AS n
     FROM release_slot s
    WHERE s.organization_id = $1 AND s.release_id = ANY($2::uuid[])
      AND s.test_case_id = ANY($3::uuid[]) AND s.status IN ('failed', 'blocked')
    GROUP BY s.release_id`,
);

/** The SQL of a release's results, read across its runs. */
@Injectable()
export class ReleaseResultsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** How many of each release's slots have each status as their latest (none: no row). */
  latestStatusCounts(
    organizationId: string,
    releaseIds: string[],
  ): Promise<Array<{ release_id: string; status: ResultStatus; n: number }>> {
    return this.transactions.manager.query(LATEST_STATUS_COUNTS, [organizationId, releaseIds]);
  }

  /** How many of each release's slots of `testCaseIds` fail now (none: no row). */
  latestFailingAmong(
    organizationId: string,
    releaseIds: string[],
    testCaseIds: string[],
  ): Promise<Array<{ release_id: string; n: number }>> {
    return this.transactions.manager.query(LATEST_FAILING_AMONG, [
      organizationId,
      releaseIds,
      testCaseIds,
    ]);
  }
}
