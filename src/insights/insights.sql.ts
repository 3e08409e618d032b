import { preparedSql, sql } from '../database/sql.js';

/** A project's quality gate settings (CONTRACT §12). */
export const GATE_SETTINGS = sql(
  'insights.gateSettings',
  `
  SELECT gate_min_pass_rate, gate_forbid_missing_tests, gate_min_tests
  FROM project
  WHERE id = $1 AND organization_id = $2`,
);

/**
 * The default baseline (CONTRACT §12): the most recent other run of the same project and name,
 * created before this one, submitted or completed, whose build's branch is this run's build's
 * branch; a run without a build (or whose build has no branch) matches the same.
 */
export const DEFAULT_BASELINE = sql(
  'insights.defaultBaseline',
  `
  SELECT baseline.id
  FROM test_run run
  LEFT JOIN build run_build ON run_build.id = run.build_id
  JOIN test_run baseline
    ON baseline.project_id = run.project_id
   AND baseline.organization_id = run.organization_id
   AND baseline.name = run.name
   AND baseline.created_at < run.created_at
   AND baseline.id <> run.id
   AND baseline.status IN ('submitted', 'completed')
  LEFT JOIN build baseline_build ON baseline_build.id = baseline.build_id
  WHERE run.id = $1 AND run.organization_id = $2
    AND baseline_build.branch IS NOT DISTINCT FROM run_build.branch
  ORDER BY baseline.created_at DESC, baseline.id DESC
  LIMIT 1`,
);

/**
 * One page of a case's results across runs, the number of all matches, and whether the case
 * is the organization's at all (one row with null result columns when the page is empty), in
 * one round trip: the page is the API's most frequent read. Prepared: its plan must not
 * depend on the values, so the case's runs are read first from `test_run_case` (indexed on the
 * case; a generic plan would otherwise walk every run of the organization), then its results
 * from `test_result` by (run, case); only the page's rows are read whole. $1 case, $2 organization, $3 run, $4 branch, $5 status,
 * $6/$7 created after/before, $8 limit, $9 offset, $10 configuration ('': none).
 * A case has a row in `test_run_case` per configuration it ran in: its runs are taken once.
 */
export const CASE_HISTORY = preparedSql(
  'insights.caseHistory',
  `
  WITH case_runs AS MATERIALIZED (
    SELECT DISTINCT trc.test_run_id
    FROM test_run_case trc
    WHERE trc.test_case_id = $1 AND ($3::uuid IS NULL OR trc.test_run_id = $3)
      AND ($10::varchar IS NULL OR trc.configuration = $10)
  ),
  matches AS MATERIALIZED (
    SELECT result.id, coalesce(result.executed_at, result.created_at) AS happened_at,
           run.name AS test_run_name, build.branch, build.commit_sha
    FROM case_runs
    JOIN test_run run ON run.id = case_runs.test_run_id AND run.organization_id = $2
    LEFT JOIN build ON build.id = run.build_id
    JOIN test_result result
      ON result.test_run_id = case_runs.test_run_id AND result.test_case_id = $1
    WHERE ($4::varchar IS NULL OR build.branch = $4)
      AND ($5::result_status IS NULL OR result.status = $5)
      AND ($6::timestamptz IS NULL OR result.created_at > $6)
      AND ($7::timestamptz IS NULL OR result.created_at < $7)
      AND ($10::varchar IS NULL OR result.configuration = $10)
  )
  SELECT EXISTS (SELECT 1 FROM test_case WHERE id = $1 AND organization_id = $2) AS case_found,
         total.n AS total, page.*
  FROM (SELECT count(*)::int AS n FROM matches) total
  LEFT JOIN LATERAL (
    SELECT result.id, result.test_run_id, result.test_case_id, result.status,
           result.duration_ms, result.message, result.defects, result.retries, result.flaky,
           result.executed_at, result.created_at, result.failure_type, result.stack_trace,
           result.signature, nullif(result.configuration, '') AS configuration,
           coalesce(result.attempts, '[]'::jsonb) AS attempts,
           m.test_run_name, m.branch, m.commit_sha
    FROM (
      SELECT * FROM matches ORDER BY happened_at DESC, id DESC LIMIT $8 OFFSET $9
    ) m
    JOIN test_result result ON result.id = m.id
    ORDER BY m.happened_at DESC, m.id DESC
  ) page ON true`,
);

/**
 * One page of a run's failing current results grouped by signature, largest group first, and
 * the number of groups (one row with null group columns when the page is empty). A group's
 * "first" result is the first stored; its case ids (20 at most) follow the same order.
 * $1 run, $2 organization, $3 limit, $4 offset.
 */
export const FAILURE_GROUPS = sql(
  'insights.failureGroups',
  `
  WITH failing AS (
    SELECT result.signature, result.failure_type, result.message, result.test_case_id,
           row_number() OVER (PARTITION BY result.signature ORDER BY result.seq, result.id)
             AS position
    FROM test_run_case trc
    JOIN test_result result ON result.id = trc.result_id
    WHERE trc.test_run_id = $1 AND trc.status IN ('failed', 'blocked')
      AND EXISTS (SELECT 1 FROM test_run WHERE id = $1 AND organization_id = $2)
  ),
  groups AS MATERIALIZED (
    SELECT signature, count(*)::int AS size,
           max(failure_type) FILTER (WHERE position = 1) AS failure_type,
           max(message) FILTER (WHERE position = 1) AS message,
           array_agg(test_case_id::text ORDER BY position) FILTER (WHERE position <= 20)
             AS test_case_ids
    FROM failing
    GROUP BY signature
  )
  SELECT total.n AS total, page.*
  FROM (SELECT count(*)::int AS n FROM groups) total
  LEFT JOIN LATERAL (
    SELECT * FROM groups ORDER BY size DESC, signature NULLS LAST LIMIT $3 OFFSET $4
  ) page ON true`,
);

/**
 * The quality gate's project settings; a null parameter keeps the stored value, except
 * that $4 true sets the minimum pass rate to $2 even when it is null (clearing it).
 */
export const UPDATE_GATE_SETTINGS = sql(
  'insights.updateGateSettings',
  `
  UPDATE project
  SET gate_min_pass_rate = CASE WHEN $4 THEN $2::double precision ELSE gate_min_pass_rate END,
      gate_forbid_missing_tests = coalesce($3::boolean, gate_forbid_missing_tests),
      gate_min_tests = coalesce($5::integer, gate_min_tests),
      updated_at = now()
  WHERE id = $1
  RETURNING id, name, key, description, gate_min_pass_rate, gate_forbid_missing_tests,
            gate_min_tests, created_at, updated_at`,
);
