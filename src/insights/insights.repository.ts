import { Injectable } from '@nestjs/common';
import { preparedSql, sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { ResultStatus } from '../results/entities/result-status.js';
import type { StoredResult } from '../results/stored-result.js';

/** A project's quality gate settings (CONTRACT §12). */
const GATE_SETTINGS = sql(
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
const DEFAULT_BASELINE = sql(
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
 * from `test_result` by (run, case). The total is exact (CONTRACT §5), so every match is
 * counted, but a match costs one index entry and its result's times: a run's name and build
 * are read per run for the branch filter, and for the page's rows only (issue 29), which also
 * take the organization. $1 case, $2 organization, $3 run, $4 branch, $5 status, $6/$7 created
 * after/before, $8 limit, $9 offset, $10 configuration ('': none).
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
      AND ($4::varchar IS NULL OR EXISTS (
            SELECT 1 FROM test_run run JOIN build ON build.id = run.build_id
             WHERE run.id = trc.test_run_id AND build.branch = $4))
  ),
  matches AS MATERIALIZED (
    SELECT result.id, result.test_run_id,
           coalesce(result.executed_at, result.created_at) AS happened_at
    FROM case_runs
    JOIN test_result result
      ON result.test_run_id = case_runs.test_run_id AND result.test_case_id = $1
    WHERE ($5::result_status IS NULL OR result.status = $5)
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
           run.name AS test_run_name, build.id AS build_id, build.name AS build_name,
           build.build_number, build.branch, build.commit_sha
    FROM (
      SELECT * FROM matches ORDER BY happened_at DESC, id DESC LIMIT $8 OFFSET $9
    ) m
    JOIN test_result result ON result.id = m.id AND result.test_run_id = m.test_run_id
    JOIN test_run run ON run.id = m.test_run_id AND run.organization_id = $2
    LEFT JOIN build ON build.id = run.build_id
    ORDER BY m.happened_at DESC, m.id DESC
  ) page ON true`,
);

/**
 * One page of a run's failing current results grouped by signature, largest group first, and
 * the number of groups (one row with null group columns when the page is empty). A group's
 * "first" result is the first stored; it counts its failing slots (CONTRACT §13), and lists
 * each case once (20 at most), by its first failing slot, in the same order.
 * $1 run, $2 organization, $3 limit, $4 offset.
 */
const FAILURE_GROUPS = sql(
  'insights.failureGroups',
  `
  WITH slots AS MATERIALIZED (
    SELECT trc.test_run_id, trc.result_id FROM test_run_case trc
    WHERE trc.test_run_id = $1 AND trc.status IN ('failed', 'blocked')
      AND EXISTS (SELECT 1 FROM test_run WHERE id = $1 AND organization_id = $2)
  ),
  failing AS (
    SELECT result.signature, result.failure_type, result.message, result.test_case_id,
           result.id AS result_id,
           row_number() OVER (PARTITION BY result.signature ORDER BY result.seq, result.id)
             AS position,
           row_number() OVER (
             PARTITION BY result.signature, result.test_case_id ORDER BY result.seq, result.id
           ) AS of_case
    FROM slots
    JOIN test_result result
      ON result.id = slots.result_id AND result.test_run_id = slots.test_run_id
  ),
  ranked AS (
    SELECT failing.*,
           count(*) FILTER (WHERE of_case = 1) OVER (PARTITION BY signature ORDER BY position)
             AS case_rank
    FROM failing
  ),
  groups AS MATERIALIZED (
    SELECT signature, count(*)::int AS size,
           max(failure_type) FILTER (WHERE position = 1) AS failure_type,
           max(message) FILTER (WHERE position = 1) AS message,
           array_agg(test_case_id::text ORDER BY position)
             FILTER (WHERE of_case = 1 AND case_rank <= 20) AS test_case_ids,
           array_agg(result_id::text ORDER BY position)
             FILTER (WHERE of_case = 1 AND case_rank <= 20) AS result_ids
    FROM ranked
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
const UPDATE_GATE_SETTINGS = sql(
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

/** A project with its quality gate's settings, as the console's settings page reads them. */
const PROJECT_GATE_SETTINGS = sql(
  'insights.projectGateSettings',
  `
  SELECT id, name, key, description, gate_min_pass_rate, gate_forbid_missing_tests,
         gate_min_tests, created_at, updated_at
  FROM project
  WHERE id = $1`,
);

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
           cur.status, base.status AS baseline_status, cur.result_id, cur.test_run_id,
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
      SELECT test_case_id, configuration, status, result_id, test_run_id, flaky FROM test_run_case
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
const COMPARISON_SUMMARY = sql(
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
const COMPARISON = sql(
  'insights.comparison',
  `
  WITH ${PAIRS}, ${SUMMARY},
  listed AS (
    SELECT pairs.test_case_id, pairs.configuration, pairs.category, pairs.status,
           pairs.baseline_status, pairs.result_id, pairs.test_run_id, tc.automation_id, tc.title,
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
    FROM listed
    JOIN test_result result
      ON result.id = listed.result_id AND result.test_run_id = listed.test_run_id
    WHERE listed.position <= 100
  ) item ON true
  ORDER BY item.category, item.position`,
);

export interface GateSettings {
  gate_min_pass_rate: number | null;
  gate_forbid_missing_tests: boolean;
  gate_min_tests: number;
}

export interface ComparisonCounts {
  new_failures: number;
  still_failing: number;
  fixed: number;
  new_tests: number;
  missing_tests: number;
  flaky: number;
}

export type ListedCategory = 'new_failures' | 'still_failing' | 'fixed';

export interface ComparisonRow extends ComparisonCounts {
  category: ListedCategory | null;
  test_case_id: string;
  /** '' for none. */
  configuration: string;
  automation_id: string | null;
  title: string;
  status: ResultStatus;
  baseline_status: ResultStatus | null;
  message: string | null;
  signature: string | null;
}

/** A stored result with its run; one row with only `total` when the page is empty. */
export interface HistoryRow extends Omit<StoredResult, 'id'> {
  /** Whether the case is the organization's; false: no rows match either. */
  case_found: boolean;
  total: number;
  id: string | null;
  test_run_name: string;
  build_id: string | null;
  build_name: string | null;
  build_number: string | null;
  branch: string | null;
  commit_sha: string | null;
}

export interface FailureGroupRow {
  total: number;
  signature: string | null;
  size: number | null;
  failure_type: string | null;
  message: string | null;
  test_case_ids: string[];
  /** Each case's first failing current result in the group, in `test_case_ids`' order. */
  result_ids: string[];
}

export interface HistoryFilters {
  testRunId?: string;
  branch?: string;
  status?: ResultStatus;
  createdAfter?: Date;
  createdBefore?: Date;
  /** '' selects the results without one. */
  configuration?: string;
}

export interface PageWindow {
  limit: number;
  offset: number;
}

export interface GateSettingsRow extends GateSettings {
  id: string;
  name: string;
  key: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Every statement of results intelligence (CONTRACT §12); each takes the organization. */
@Injectable()
export class InsightsRepository {
  constructor(private readonly transactions: Transactions) {}

  private query<T>(text: string, parameters: unknown[]): Promise<T[]> {
    return this.transactions.manager.query(text, parameters);
  }

  async gateSettingsOf(organizationId: string, projectId: string): Promise<GateSettings> {
    const [settings] = await this.query<GateSettings>(GATE_SETTINGS, [projectId, organizationId]);
    return settings;
  }

  async defaultBaseline(organizationId: string, runId: string): Promise<string | null> {
    const [row] = await this.query<{ id: string }>(DEFAULT_BASELINE, [runId, organizationId]);
    return row?.id ?? null;
  }

  caseHistory(
    organizationId: string,
    testCaseId: string,
    filters: HistoryFilters,
    page: PageWindow,
  ): Promise<HistoryRow[]> {
    return this.query<HistoryRow>(CASE_HISTORY, [
      testCaseId,
      organizationId,
      filters.testRunId ?? null,
      filters.branch ?? null,
      filters.status ?? null,
      filters.createdAfter ?? null,
      filters.createdBefore ?? null,
      page.limit,
      page.offset,
      filters.configuration ?? null,
    ]);
  }

  failureGroups(
    organizationId: string,
    runId: string,
    page: PageWindow,
  ): Promise<FailureGroupRow[]> {
    return this.query<FailureGroupRow>(FAILURE_GROUPS, [
      runId,
      organizationId,
      page.limit,
      page.offset,
    ]);
  }

  /** The comparison's rows: the summary on each, and the listed cases (none: one row). */
  comparison(
    organizationId: string,
    runId: string,
    baselineRunId: string | null,
  ): Promise<ComparisonRow[]> {
    return this.query<ComparisonRow>(COMPARISON, [runId, baselineRunId, organizationId]);
  }

  async comparisonSummary(
    organizationId: string,
    runId: string,
    baselineRunId: string | null,
  ): Promise<ComparisonCounts & { unquarantined_new_failures: number }> {
    const [row] = await this.query<ComparisonCounts & { unquarantined_new_failures: number }>(
      COMPARISON_SUMMARY,
      [runId, baselineRunId, organizationId],
    );
    return row;
  }

  /** `minPassRate` undefined keeps the stored value; null clears it. */
  /** The project with its gate settings; null when there is no such project. */
  async projectGateSettings(projectId: string): Promise<GateSettingsRow | null> {
    const [row] = await this.query<GateSettingsRow>(PROJECT_GATE_SETTINGS, [projectId]);
    return row ?? null;
  }

  async updateGateSettings(
    projectId: string,
    minPassRate: number | null | undefined,
    forbidMissingTests: boolean | undefined,
    minTests: number | undefined,
  ): Promise<GateSettingsRow | null> {
    const rows = await this.query<GateSettingsRow>(UPDATE_GATE_SETTINGS, [
      projectId,
      minPassRate ?? null,
      forbidMissingTests ?? null,
      minPassRate !== undefined,
      minTests ?? null,
    ]);
    // An UPDATE's result through TypeORM is [rows, affected count].
    const updated = (Array.isArray(rows[0]) ? rows[0] : rows) as GateSettingsRow[];
    return updated[0] ?? null;
  }
}
