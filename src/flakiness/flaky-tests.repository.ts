import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { FlakyTestResponse } from './dto/flaky-test.dto.js';

/**
 * A project's flaky tests (CONTRACT §12), in one statement over `case_outcomes`, the summary
 * the writers of runs and results keep (one character per run for each case), in four steps:
 * 1. `sequences`: each candidate's last `$4` passed or failed outcomes, oldest first. The
 *    candidates are the cases with a failed (`F`) or retried-pass (`R`) outcome: every other
 *    case has only passes in its window, no flip and no retried pass, and is never listed. The
 *    outcomes are the case's slots without the `.`s or, on `$3` (a build's branch), the slots of
 *    the project's considered runs on it, cut as spans of consecutive positions
 *    (`branch_spans`: a few per branch, however many runs);
 * 2. `counted`: each window's counts; flips are the changes between `F` and a pass (`R` too),
 *    counted as the stretches of equal outcomes less one;
 * 3. `listed`: the cases with `$5` executions or more, flaky enough;
 * 4. the page (`$6`, `$7`), aggregated to JSON beside the total, so that one row answers even
 *    past the end.
 * `$8`, when not null, keeps only those cases (the console marks a page of results with it).
 * The summary remembers a case's last 2,000 runs (`OUTCOME_SLOTS`): a case executed fewer than
 * `$4` times in them has its window cut there.
 */
// Each item is a slot: a case in one configuration (CONTRACT §13); `$9` keeps one configuration.
const FLAKY_TESTS = sql(
  'flakiness.flakyTests',
  `WITH branch_spans AS (
     SELECT array_agg(first ORDER BY first) AS firsts, array_agg(slots ORDER BY first) AS lengths
     FROM (
       SELECT min(position) AS first, count(*)::int AS slots
       FROM (
         SELECT r.position, r.position - row_number() OVER (ORDER BY r.position) AS span
         FROM test_run r
         JOIN build b ON b.id = r.build_id AND b.organization_id = $1
         WHERE r.organization_id = $1 AND r.project_id = $2
           AND r.status IN ('submitted', 'completed') AND b.branch = $3::text
       ) branch_runs
       GROUP BY span
     ) spans
   ),
   sequences AS MATERIALIZED (
     SELECT o.test_case_id, o.configuration,
            right(replace(CASE WHEN $3::text IS NULL THEN o.outcomes ELSE array_to_string(ARRAY(
              SELECT substr(o.outcomes, s.first - o.base, s.slots)
              FROM unnest(branch_spans.firsts, branch_spans.lengths) AS s(first, slots)
              ORDER BY s.first
            ), '') END, '.', ''), $4) AS w
     FROM case_outcomes o
     CROSS JOIN branch_spans
     WHERE o.project_id = $2 AND o.organization_id = $1
       AND (strpos(o.outcomes, 'F') > 0 OR strpos(o.outcomes, 'R') > 0)
       AND ($8::uuid[] IS NULL OR o.test_case_id = ANY($8::uuid[]))
       AND ($9::varchar IS NULL OR o.configuration = $9)
   ),
   counted AS (
     SELECT test_case_id, configuration,
            length(w) AS executions,
            greatest(length(regexp_replace(translate(w, 'R', 'P'), '(.)\\1*', '\\1', 'g')) - 1, 0)
              AS flips,
            length(w) - length(replace(w, 'R', '')) AS retried_passes,
            CASE right(w, 1) WHEN 'F' THEN 'failed' WHEN '' THEN NULL ELSE 'passed' END
              AS last_status
     FROM sequences
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
     ORDER BY flip_rate DESC, retried_passes DESC, automation_id ASC NULLS LAST, test_case_id,
              configuration
     LIMIT $6 OFFSET $7
   )
   SELECT (SELECT count(*) FROM listed)::int AS total,
          coalesce(json_agg(json_build_object(
            'test_case_id', page.test_case_id,
            'configuration', nullif(page.configuration, ''),
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
                     page.automation_id ASC NULLS LAST, page.test_case_id, page.configuration),
                   '[]') AS items
   FROM page`,
);

export interface FlakyTestsFilter {
  branch: string | null;
  window: number;
  minExecutions: number;
  /** Null: every item. */
  limit: number | null;
  offset: number;
  /** Only these cases. */
  testCaseIds?: string[];
  /** Only this configuration ('': the slots without one). */
  configuration?: string;
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
      filter.testCaseIds ?? null,
      filter.configuration ?? null,
    ]);
    return row;
  }
}
