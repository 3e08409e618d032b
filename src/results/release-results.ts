import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { RESULT_STATUSES, type ResultStatus } from './entities/result-status.js';

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

export type ReleaseResultCounts = Record<ResultStatus | 'total', number>;

/** What the results module tells others of a release's results. */
@Injectable()
export class ReleaseResults {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Each release's slots by the status of their latest result across all of its runs, and all
   * of them (CONTRACT §6), by release id (every id present).
   */
  async latestStatusCounts(releaseIds: string[]): Promise<Map<string, ReleaseResultCounts>> {
    const rows: Array<{ release_id: string; status: ResultStatus; n: number }> =
      await this.transactions.manager.query(LATEST_STATUS_COUNTS, [releaseIds]);
    const counts = new Map(
      releaseIds.map((id) => [
        id,
        Object.fromEntries([
          ['total', 0],
          ...RESULT_STATUSES.map((s) => [s, 0]),
        ]) as ReleaseResultCounts,
      ]),
    );
    for (const row of rows) {
      const release = counts.get(row.release_id) as ReleaseResultCounts;
      release[row.status] = row.n;
      release.total += row.n;
    }
    return counts;
  }
}
