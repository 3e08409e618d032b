import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { RESULT_STATUSES, type ResultStatus } from './entities/result-status.js';

/**
 * Each slot (case and configuration, CONTRACT §13) of each release's runs once, by its latest
 * stored result (storage time, then id): a failure in one configuration is not hidden by a
 * later pass in another.
 *
 * Its cost follows the release, not the table (issue 29):
 * - `slots`: each of the release's runs is read alone, by the first column of its key
 *   (`OFFSET 0` keeps the subquery a loop over the runs, so no plan, with or without
 *   statistics, scans `test_run_case` for them), and its rows carry their result's storage
 *   time, so no result is looked up. The slots are then grouped, one row each: for each
 *   slot and status, the latest time a current row of that status was stored. (Without
 *   statistics PostgreSQL hashes them; with statistics of a large table it expects as many
 *   slots as the table has cases, and sorts the release's rows instead: still only the
 *   release's, but that sort is what remains of the cost at millions of results.)
 * - `latest`: the status (or statuses, when two runs stored the slot's results at the same
 *   millisecond) whose time is the slot's latest.
 * - a tie, rare, is decided by result id among the slot's rows of that time, read by their key.
 */
export const LATEST_STATUS_COUNTS = sql(
  'results.releasesLatestStatusCounts',
  `WITH slots AS (
         SELECT run.release_id, c.test_case_id, c.configuration,
                ${RESULT_STATUSES.map((s) => `max(c.result_created_at) FILTER (WHERE c.status = '${s}') AS ${s}`).join(',\n                ')}
           FROM test_run run
          CROSS JOIN LATERAL (
                SELECT c.test_case_id, c.configuration, c.status, c.result_created_at
                  FROM test_run_case c WHERE c.test_run_id = run.id OFFSET 0
                ) c
          WHERE run.release_id = ANY($1::uuid[])
          GROUP BY run.release_id, c.test_case_id, c.configuration
       ),
       latest AS (
         SELECT s.release_id, s.test_case_id, s.configuration, v.status, v.stored_at
           FROM slots s
          CROSS JOIN LATERAL (VALUES ${RESULT_STATUSES.map((s) => `('${s}'::result_status, s.${s})`).join(', ')}) v(status, stored_at)
          WHERE v.stored_at = greatest(${RESULT_STATUSES.map((s) => `s.${s}`).join(', ')})
       )
       SELECT release_id, status, count(*)::int AS n FROM (
         SELECT l.release_id,
                CASE WHEN count(*) = 1 THEN min(l.status) ELSE (
                  SELECT c.status FROM test_run run
                    JOIN test_run_case c ON c.test_run_id = run.id
                     AND c.test_case_id = l.test_case_id AND c.configuration = l.configuration
                   WHERE run.release_id = l.release_id AND c.result_created_at = max(l.stored_at)
                   ORDER BY c.result_id DESC LIMIT 1
                ) END AS status
           FROM latest l
          GROUP BY l.release_id, l.test_case_id, l.configuration
       ) slot GROUP BY release_id, status`,
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
