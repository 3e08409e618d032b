import { sql } from '../database/sql.js';

/**
 * Each slot (a test case in a configuration, CONTRACT §13) of either run, once (a full join of
 * the two runs' current results on the slot, both read from `test_run_case` by its primary
 * key), with the one category it falls in (CONTRACT §12), or null. $1 the run, $2 the baseline (null: none, so every case of the
 * run is absent from it), $3 the organization both runs must belong to.
 */
const PAIRS = `
  pairs AS MATERIALIZED (
    SELECT coalesce(cur.test_case_id, base.test_case_id) AS test_case_id,
           coalesce(cur.configuration, base.configuration) AS configuration,
           cur.status, base.status AS baseline_status, cur.result_id,
           coalesce(cur.flaky, false) AS flaky,
           CASE
             WHEN cur.status IN ('failed', 'blocked') THEN
               CASE WHEN base.status IN ('failed', 'blocked') THEN 'still_failing'
                    ELSE 'new_failures' END
             WHEN base.status IN ('failed', 'blocked') AND cur.status = 'passed' THEN 'fixed'
             WHEN base.test_case_id IS NULL THEN 'new_tests'
             WHEN cur.test_case_id IS NULL THEN 'missing_tests'
           END AS category
    FROM (
      SELECT test_case_id, configuration, status, result_id, flaky FROM test_run_case
      WHERE test_run_id = $1
        AND EXISTS (SELECT 1 FROM test_run WHERE id = $1 AND organization_id = $3)
    ) cur
    FULL JOIN (
      SELECT test_case_id, configuration, status FROM test_run_case
      WHERE test_run_id = $2
        AND EXISTS (SELECT 1 FROM test_run WHERE id = $2 AND organization_id = $3)
    ) base ON base.test_case_id = cur.test_case_id AND base.configuration = cur.configuration
  )`;

const SUMMARY = `
  summary AS (
    SELECT count(*) FILTER (WHERE category = 'new_failures')::int AS new_failures,
           count(*) FILTER (WHERE category = 'still_failing')::int AS still_failing,
           count(*) FILTER (WHERE category = 'fixed')::int AS fixed,
           count(*) FILTER (WHERE category = 'new_tests')::int AS new_tests,
           count(*) FILTER (WHERE category = 'missing_tests')::int AS missing_tests,
           count(*) FILTER (WHERE flaky)::int AS flaky
    FROM pairs
  )`;

/** The summary alone, and the new failures of cases outside an active quarantine (the gate). */
export const COMPARISON_SUMMARY = sql(
  'insights.comparisonSummary',
  `
  WITH ${PAIRS}, ${SUMMARY}
  SELECT summary.*,
         (SELECT count(*)::int FROM pairs
          WHERE category = 'new_failures'
            AND NOT EXISTS (
              SELECT 1 FROM quarantine_entry q
              WHERE q.test_case_id = pairs.test_case_id AND q.organization_id = $3
                AND (q.expires_at IS NULL OR q.expires_at > now())
            )) AS unquarantined_new_failures
  FROM summary`,
);

/**
 * The summary, repeated on each row, and the first 100 slots of each listed category by
 * automation id (code-point order, whatever the database's collation; cases without one
 * last, then by id, then configuration, none first) with their current result's message and
 * signature. Without any listed
 * case: one row, the summary, with null list columns.
 */
export const COMPARISON = sql(
  'insights.comparison',
  `
  WITH ${PAIRS}, ${SUMMARY},
  listed AS (
    SELECT pairs.test_case_id, pairs.configuration, pairs.category, pairs.status,
           pairs.baseline_status, pairs.result_id, tc.automation_id, tc.title,
           row_number() OVER (
             PARTITION BY pairs.category
             ORDER BY tc.automation_id COLLATE "C" NULLS LAST, pairs.test_case_id,
                      pairs.configuration COLLATE "C"
           ) AS position
    FROM pairs
    JOIN test_case tc ON tc.id = pairs.test_case_id AND tc.organization_id = $3
    WHERE pairs.category IN ('new_failures', 'still_failing', 'fixed')
  )
  SELECT summary.*, item.category, item.test_case_id, item.configuration, item.automation_id,
         item.title, item.status, item.baseline_status, item.message, item.signature
  FROM summary
  LEFT JOIN (
    SELECT listed.*, result.message, result.signature
    FROM listed JOIN test_result result ON result.id = listed.result_id
    WHERE listed.position <= 100
  ) item ON true
  ORDER BY item.category, item.position`,
);
