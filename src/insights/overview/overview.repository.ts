import { Injectable } from '@nestjs/common';
import { sql } from '../../database/sql.js';
import { Transactions } from '../../database/transactions.js';
import type { TestRunStatus } from '../../testruns/entities/test-run.entity.js';

/*
 * A project's overview (issue 31): what a QA lead reads first. Every statement reads a bounded
 * number of runs through an index and never a run's results whole: a run's counts, its kept
 * verdict and its build are on its row (and its build's), so the latest runs and the trends
 * read one row per run; the recurring failures read only failing results, from the partial
 * index `IDX_test_result_run_signature` (migration `OverviewIndexes`).
 */

/**
 * A run as the overview shows it: its counts, pass rate (passed / executed, 4 decimals, null
 * when nothing was executed, as a release's, CONTRACT §6), its wall time (from its creation to
 * when it was first handed in: submitted, else completed; null while in progress), the verdict
 * kept at its last completion, and its build.
 */
const RUN_COLUMNS = `
  run.id, run.name, run.status, run.position, run.total, run.passed, run.failed, run.blocked,
  run.skipped, run.retest, run.untested, run.flaky,
  round(run.passed::numeric / nullif(run.total - run.untested, 0), 4)::float8 AS pass_rate,
  (extract(epoch FROM coalesce(run.submitted_at, run.completed_at) - run.created_at) * 1000)
    ::bigint::float8 AS duration_ms,
  run.gate_passed, run.gate_evaluated_at, run.created_at, run.submitted_at, run.completed_at,
  run.build_id, build.name AS build_name, build.build_number, build.branch, build.commit_sha`;

/**
 * The latest run of each of the project's run names, latest first: the names found by a loose
 * scan of `IDX_test_run_project_name_created` (one index probe per name, however many runs
 * each has; at most 100 names, the first by name), then each name's latest run by the same
 * index. $1 project, $2 organization.
 */
const LATEST_RUNS = sql(
  'overview.latestRuns',
  `
  WITH RECURSIVE names(name, depth) AS (
    (SELECT name, 1 FROM test_run
     WHERE project_id = $1 AND organization_id = $2
     ORDER BY name LIMIT 1)
    UNION ALL
    SELECT (SELECT next.name FROM test_run next
            WHERE next.project_id = $1 AND next.organization_id = $2 AND next.name > names.name
            ORDER BY next.name LIMIT 1),
           names.depth + 1
    FROM names
    WHERE names.name IS NOT NULL AND names.depth < 100
  )
  SELECT ${RUN_COLUMNS}
  FROM names
  CROSS JOIN LATERAL (
    SELECT * FROM test_run latest
    WHERE latest.project_id = $1 AND latest.organization_id = $2 AND latest.name = names.name
    ORDER BY latest.created_at DESC, latest.id DESC
    LIMIT 1
  ) run
  LEFT JOIN build ON build.id = run.build_id AND build.organization_id = $2
  WHERE names.name IS NOT NULL
  ORDER BY run.created_at DESC, run.id DESC`,
);

/**
 * The series a trend can follow: each run name with each branch its builds were on (null: no
 * build, or a build without a branch) among the project's latest 500 runs, the most recently
 * run first, with how many of those runs each has. $1 project, $2 organization.
 */
const SERIES = sql(
  'overview.series',
  `
  SELECT run.name, build.branch, count(*)::int AS runs, max(run.created_at) AS last_run_at
  FROM (
    SELECT id, name, build_id, created_at FROM test_run
    WHERE project_id = $1 AND organization_id = $2
    ORDER BY created_at DESC, id DESC
    LIMIT 500
  ) run
  LEFT JOIN build ON build.id = run.build_id AND build.organization_id = $2
  GROUP BY run.name, build.branch
  ORDER BY max(run.created_at) DESC, run.name, build.branch NULLS FIRST
  LIMIT 50`,
);

/**
 * The latest `$5` submitted or completed runs named `$3` (on branch `$4` when not null), latest
 * first, read from `IDX_test_run_project_name_created` newest first. $1 project, $2
 * organization.
 */
const TREND = sql(
  'overview.trend',
  `
  SELECT ${RUN_COLUMNS}
  FROM test_run run
  LEFT JOIN build ON build.id = run.build_id AND build.organization_id = $2
  WHERE run.project_id = $1 AND run.organization_id = $2 AND run.name = $3
    AND run.status IN ('submitted', 'completed')
    AND ($4::varchar IS NULL OR build.branch = $4)
  ORDER BY run.created_at DESC, run.id DESC
  LIMIT $5`,
);

/**
 * The causes of failure that recur across the project's latest `$5` submitted or completed
 * runs (named `$3` and on branch `$4` when those are not null): each signature (CONTRACT §12)
 * among those runs' failing current results that failed in two runs or more, in the most runs
 * first, then the most failures, at most `$6`. A run's failing results are read from the
 * partial index `IDX_test_result_run_signature` alone (only failed and blocked results have a
 * signature; the index holds their slot and id, so no result is fetched), and each is kept
 * when it is its slot's current result (`test_run_case` by its whole key), so a failure a
 * rerun replaced does not count; the runs are the organization's, and so are their results.
 * Each group names its latest failure's type and message (that one result fetched by id), how
 * many of the runs it failed in (and whether in the latest), its failures and its cases. One row per run read comes first (`signature` null), so that the window read is
 * known even when nothing recurs. $1 project, $2 organization.
 */
const RECURRING_FAILURES = sql(
  'overview.recurringFailures',
  `
  WITH recent AS MATERIALIZED (
    SELECT run.id, run.created_at,
           row_number() OVER (ORDER BY run.created_at DESC, run.id DESC)::int AS age
    FROM test_run run
    LEFT JOIN build ON build.id = run.build_id AND build.organization_id = $2
    WHERE run.project_id = $1 AND run.organization_id = $2
      AND run.status IN ('submitted', 'completed')
      AND ($3::varchar IS NULL OR run.name = $3)
      AND ($4::varchar IS NULL OR build.branch = $4)
    ORDER BY run.created_at DESC, run.id DESC
    LIMIT $5
  ),
  failing AS MATERIALIZED (
    SELECT result.signature, result.test_run_id, result.test_case_id, result.id AS result_id,
           recent.age
    FROM recent
    JOIN test_result result
      ON result.test_run_id = recent.id AND result.signature IS NOT NULL
    JOIN test_run_case trc
      ON trc.test_run_id = result.test_run_id AND trc.test_case_id = result.test_case_id
     AND trc.configuration = result.configuration AND trc.result_id = result.id
  ),
  groups AS (
    SELECT signature,
           count(DISTINCT test_run_id)::int AS runs,
           count(*)::int AS failures,
           count(DISTINCT test_case_id)::int AS cases,
           min(age) AS latest_age,
           (array_agg(result_id ORDER BY age, result_id))[1] AS latest_result_id,
           (array_agg(test_run_id ORDER BY age, result_id))[1] AS latest_run_id
    FROM failing
    GROUP BY signature
    HAVING count(DISTINCT test_run_id) >= 2
    ORDER BY runs DESC, failures DESC, signature
    LIMIT $6
  )
  SELECT NULL AS signature, recent.id AS last_run_id, recent.age AS latest_age,
         NULL::int AS runs, NULL::int AS failures, NULL::int AS cases,
         NULL AS failure_type, NULL AS message, 0 AS part
  FROM recent
  UNION ALL
  SELECT groups.signature, latest.test_run_id, groups.latest_age, groups.runs, groups.failures,
         groups.cases, latest.failure_type, latest.message, 1
  FROM groups
  JOIN test_result latest
    ON latest.id = groups.latest_result_id AND latest.test_run_id = groups.latest_run_id
   AND latest.organization_id = $2
  ORDER BY part, runs DESC, failures DESC, signature, latest_age`,
);

/** A run's row as the overview reads it. */
export interface OverviewRunRow {
  id: string;
  name: string;
  status: TestRunStatus;
  position: number | null;
  total: number;
  passed: number;
  failed: number;
  blocked: number;
  skipped: number;
  retest: number;
  untested: number;
  flaky: number;
  pass_rate: number | null;
  duration_ms: number | null;
  gate_passed: boolean | null;
  gate_evaluated_at: Date | null;
  created_at: Date;
  submitted_at: Date | null;
  completed_at: Date | null;
  build_id: string | null;
  build_name: string | null;
  build_number: string | null;
  branch: string | null;
  commit_sha: string | null;
}

export interface SeriesRow {
  name: string;
  branch: string | null;
  runs: number;
  last_run_at: Date;
}

/** A run of the window (`signature` null, `part` 0) or a recurring cause (`part` 1). */
export interface RecurringFailureRow {
  signature: string | null;
  last_run_id: string;
  latest_age: number;
  runs: number | null;
  failures: number | null;
  cases: number | null;
  failure_type: string | null;
  message: string | null;
  part: number;
}

export interface RunSeries {
  /** Null: every name. */
  name: string | null;
  /** Null: every branch. */
  branch: string | null;
}

/** The overview's statements; each takes the organization. */
@Injectable()
export class OverviewRepository {
  constructor(private readonly transactions: Transactions) {}

  private query<T>(text: string, parameters: unknown[]): Promise<T[]> {
    return this.transactions.manager.query(text, parameters);
  }

  latestRuns(organizationId: string, projectId: string): Promise<OverviewRunRow[]> {
    return this.query(LATEST_RUNS, [projectId, organizationId]);
  }

  series(organizationId: string, projectId: string): Promise<SeriesRow[]> {
    return this.query(SERIES, [projectId, organizationId]);
  }

  /** The series' latest `runs` handed-in runs, latest first. */
  trend(
    organizationId: string,
    projectId: string,
    series: RunSeries & { name: string },
    runs: number,
  ): Promise<OverviewRunRow[]> {
    return this.query(TREND, [projectId, organizationId, series.name, series.branch, runs]);
  }

  recurringFailures(
    organizationId: string,
    projectId: string,
    series: RunSeries,
    runs: number,
    limit: number,
  ): Promise<RecurringFailureRow[]> {
    return this.query(RECURRING_FAILURES, [
      projectId,
      organizationId,
      series.name,
      series.branch,
      runs,
      limit,
    ]);
  }
}
