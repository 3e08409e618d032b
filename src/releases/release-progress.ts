import type { Transactions } from '../database/transactions.js';
import { RESULT_STATUSES, type ResultStatus } from '../results/entities/result-status.js';
import type { ReleaseProgressResponse } from './dto/release-progress.dto.js';
import type { Release } from './entities/release.entity.js';

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Release readiness (CONTRACT §6): each case counts once, by its latest stored result (by
 * storage time, then id) across all of the release's runs. Three aggregate queries.
 */
export async function releaseProgress(
  transactions: Transactions,
  release: Release,
): Promise<ReleaseProgressResponse> {
  const manager = transactions.manager;
  const [[builds], runRows, resultRows] = await Promise.all([
    manager.query('SELECT count(*)::int AS n FROM build WHERE release_id = $1', [
      release.id,
    ]) as Promise<Array<{ n: number }>>,
    manager.query(
      'SELECT status, count(*)::int AS n FROM test_run WHERE release_id = $1 GROUP BY status',
      [release.id],
    ) as Promise<Array<{ status: string; n: number }>>,
    manager.query(
      `SELECT status, count(*)::int AS n FROM (
         SELECT DISTINCT ON (c.test_case_id) c.status
           FROM test_run_case c
           JOIN test_run t ON t.id = c.test_run_id
           JOIN test_result r ON r.id = c.result_id
          WHERE t.release_id = $1
          ORDER BY c.test_case_id, r.created_at DESC, r.id DESC
       ) latest GROUP BY status`,
      [release.id],
    ) as Promise<Array<{ status: ResultStatus; n: number }>>,
  ]);

  const runs = { total: 0, in_progress: 0, submitted: 0, completed: 0 };
  for (const row of runRows) {
    runs[row.status as keyof typeof runs] = row.n;
    runs.total += row.n;
  }
  const results = Object.fromEntries([
    ['total', 0],
    ...RESULT_STATUSES.map((s) => [s, 0]),
  ]) as Record<ResultStatus | 'total', number>;
  for (const row of resultRows) {
    results[row.status] = row.n;
    results.total += row.n;
  }
  const executed = results.total - results.untested;
  return {
    release_id: release.id,
    status: release.status,
    builds: builds.n,
    test_runs: runs,
    results,
    pass_rate: executed === 0 ? null : round4(results.passed / executed),
    completion_rate: results.total === 0 ? null : round4(executed / results.total),
    ready:
      runs.total > 0 &&
      runs.completed === runs.total &&
      results.failed === 0 &&
      results.blocked === 0,
  };
}
