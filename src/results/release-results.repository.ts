import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { ResultStatus } from './entities/result-status.js';

/**
 * Each slot (case and configuration, CONTRACT §13) of each release's runs once, by its latest
 * stored result (storage time, then id): a failure in one configuration is not hidden by a
 * later pass in another.
 */
const LATEST_STATUS_COUNTS = sql(
  'results.releasesLatestStatusCounts',
  `SELECT release_id, status, count(*)::int AS n FROM (
         SELECT DISTINCT ON (t.release_id, c.test_case_id, c.configuration) t.release_id, c.status
           FROM test_run_case c
           JOIN test_run t ON t.id = c.test_run_id
           JOIN test_result r ON r.id = c.result_id
          WHERE t.release_id = ANY($1::uuid[])
          ORDER BY t.release_id, c.test_case_id, c.configuration, r.created_at DESC, r.id DESC
       ) latest GROUP BY release_id, status`,
);

/**
 * How many of each release's slots whose case is one of $2 have a failed or blocked latest
 * result (as `LATEST_STATUS_COUNTS` finds it: the cases' filter leaves each slot whole).
 */
const LATEST_FAILING_AMONG = sql(
  'results.releasesLatestFailingAmong',
  `SELECT release_id, count(*)::int AS n FROM (
         SELECT DISTINCT ON (t.release_id, c.test_case_id, c.configuration) t.release_id, c.status
           FROM test_run_case c
           JOIN test_run t ON t.id = c.test_run_id
           JOIN test_result r ON r.id = c.result_id
          WHERE t.release_id = ANY($1::uuid[]) AND c.test_case_id = ANY($2::uuid[])
          ORDER BY t.release_id, c.test_case_id, c.configuration, r.created_at DESC, r.id DESC
       ) latest
    WHERE status IN ('failed', 'blocked')
    GROUP BY release_id`,
);

/** The SQL of a release's results, read across its runs. */
@Injectable()
export class ReleaseResultsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** How many of each release's slots have each status as their latest (none: no row). */
  latestStatusCounts(
    releaseIds: string[],
  ): Promise<Array<{ release_id: string; status: ResultStatus; n: number }>> {
    return this.transactions.manager.query(LATEST_STATUS_COUNTS, [releaseIds]);
  }

  /** How many of each release's slots of `testCaseIds` fail now (none: no row). */
  latestFailingAmong(
    releaseIds: string[],
    testCaseIds: string[],
  ): Promise<Array<{ release_id: string; n: number }>> {
    return this.transactions.manager.query(LATEST_FAILING_AMONG, [releaseIds, testCaseIds]);
  }
}
