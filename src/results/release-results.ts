import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { RESULT_STATUSES, type ResultStatus } from './entities/result-status.js';

/** Each case of a release's runs once, by its latest stored result (storage time, then id). */
const LATEST_STATUS_COUNTS = sql(
  'results.releaseLatestStatusCounts',
  `SELECT status, count(*)::int AS n FROM (
         SELECT DISTINCT ON (c.test_case_id) c.status
           FROM test_run_case c
           JOIN test_run t ON t.id = c.test_run_id
           JOIN test_result r ON r.id = c.result_id
          WHERE t.release_id = $1
          ORDER BY c.test_case_id, r.created_at DESC, r.id DESC
       ) latest GROUP BY status`,
);

export type ReleaseResultCounts = Record<ResultStatus | 'total', number>;

/** What the results module tells others of a release's results. */
@Injectable()
export class ReleaseResults {
  constructor(private readonly transactions: Transactions) {}

  /**
   * The release's cases by the status of their latest result across all of its runs, and all
   * of them (CONTRACT §6).
   */
  async latestStatusCounts(releaseId: string): Promise<ReleaseResultCounts> {
    const rows: Array<{ status: ResultStatus; n: number }> = await this.transactions.manager.query(
      LATEST_STATUS_COUNTS,
      [releaseId],
    );
    const counts = Object.fromEntries([
      ['total', 0],
      ...RESULT_STATUSES.map((s) => [s, 0]),
    ]) as ReleaseResultCounts;
    for (const row of rows) {
      counts[row.status] = row.n;
      counts.total += row.n;
    }
    return counts;
  }
}
