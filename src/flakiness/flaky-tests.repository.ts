import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { FlakyTestResponse } from './dto/flaky-test.dto.js';

/**
 * A project's flaky tests (CONTRACT §12), in one statement, in four steps:
 * 1. `runs`: the project's submitted or completed runs (on `$3`, the build's branch, if given);
 * 2. `candidates`: the cases with a failed or retried-pass current result in one of them. Every
 *    other case has only passes in its window: no flip, no retried pass, never listed. So only
 *    a few hundred of a project's cases have their windows computed, whatever its size;
 * 3. `windowed`: each candidate's last `$4` passed or failed results, newest first (`n` = 1),
 *    each marked when it differs from the one before it (oldest first);
 * 4. `listed`: the counts per case, kept when `$5` executions or more and flaky enough.
 * The page (`$6`, `$7`) is aggregated to JSON beside the total, so that one row answers even
 * past the end.
 */
const FLAKY_TESTS = sql(
  'flakiness.flakyTests',
  `WITH runs AS (
     SELECT r.id, r.created_at, r.failed > 0 OR r.flaky > 0 AS noisy
     FROM test_run r
     LEFT JOIN build b ON b.id = r.build_id AND b.organization_id = $1
     WHERE r.organization_id = $1 AND r.project_id = $2
       AND r.status IN ('submitted', 'completed')
       AND ($3::text IS NULL OR b.branch = $3::text)
   ),
   candidates AS (
     SELECT DISTINCT c.test_case_id
     FROM runs
     JOIN test_run_case c ON c.test_run_id = runs.id
     WHERE runs.noisy AND (c.status = 'failed' OR c.flaky)
   ),
   recent AS (
     SELECT c.test_case_id, c.status, c.flaky,
            row_number() OVER (
              PARTITION BY c.test_case_id ORDER BY runs.created_at DESC, runs.id DESC
            ) AS n
     FROM candidates
     JOIN test_run_case c ON c.test_case_id = candidates.test_case_id
     JOIN runs ON runs.id = c.test_run_id
     WHERE c.status IN ('passed', 'failed')
   ),
   windowed AS (
     SELECT test_case_id, status, flaky, n,
            status <> lag(status) OVER (PARTITION BY test_case_id ORDER BY n DESC) AS flip
     FROM recent
     WHERE n <= $4
   ),
   counted AS (
     SELECT test_case_id,
            count(*)::int AS executions,
            count(*) FILTER (WHERE flip)::int AS flips,
            count(*) FILTER (WHERE flaky AND status = 'passed')::int AS retried_passes,
            min(status::text) FILTER (WHERE n = 1) AS last_status
     FROM windowed
     GROUP BY test_case_id
   ),
   listed AS (
     SELECT counted.*, round(flips::numeric / (executions - 1), 4) AS flip_rate,
            tc.automation_id, tc.title
     FROM counted
     JOIN test_case tc ON tc.id = counted.test_case_id
       AND tc.project_id = $2 AND tc.organization_id = $1
     WHERE executions >= $5 AND (flips * 10 >= executions - 1 OR retried_passes >= 1)
   ),
   page AS (
     SELECT * FROM listed
     ORDER BY flip_rate DESC, retried_passes DESC, automation_id ASC NULLS LAST, test_case_id
     LIMIT $6 OFFSET $7
   )
   SELECT (SELECT count(*) FROM listed)::int AS total,
          coalesce(json_agg(json_build_object(
            'test_case_id', page.test_case_id,
            'automation_id', page.automation_id,
            'title', page.title,
            'executions', page.executions,
            'flips', page.flips,
            'flip_rate', page.flip_rate,
            'retried_passes', page.retried_passes,
            'last_status', page.last_status,
            'quarantined', EXISTS (
              SELECT 1 FROM quarantine_entry q
              WHERE q.test_case_id = page.test_case_id AND q.organization_id = $1
                AND (q.expires_at IS NULL OR q.expires_at > now())
            )
          ) ORDER BY page.flip_rate DESC, page.retried_passes DESC,
                     page.automation_id ASC NULLS LAST, page.test_case_id), '[]') AS items
   FROM page`,
);

export interface FlakyTestsFilter {
  branch: string | null;
  window: number;
  minExecutions: number;
  limit: number;
  offset: number;
}

@Injectable()
export class FlakyTestsRepository {
  constructor(private readonly transactions: Transactions) {}

  async list(
    organizationId: string,
    projectId: string,
    filter: FlakyTestsFilter,
  ): Promise<{ items: FlakyTestResponse[]; total: number }> {
    const [row] = await this.transactions.manager.query<
      Array<{ items: FlakyTestResponse[]; total: number }>
    >(FLAKY_TESTS, [
      organizationId,
      projectId,
      filter.branch,
      filter.window,
      filter.minExecutions,
      filter.limit,
      filter.offset,
    ]);
    return row;
  }
}
