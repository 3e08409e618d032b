import { Injectable } from '@nestjs/common';
import type { Caller } from '../../common/caller.js';
import { isoOrNull } from '../../common/serialization.js';
import { ProjectLookup } from '../../projects/project-lookup.js';
import type {
  OverviewRun,
  OverviewTrendQuery,
  OverviewTrendResponse,
  ProjectOverviewResponse,
  RecurringFailuresQuery,
  RecurringFailuresResponse,
} from './dto/project-overview.dto.js';
import { type OverviewRunRow, OverviewRepository } from './overview.repository.js';

function toOverviewRun(row: OverviewRunRow): OverviewRun {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    counts: {
      total: row.total,
      passed: row.passed,
      failed: row.failed,
      blocked: row.blocked,
      skipped: row.skipped,
      retest: row.retest,
      untested: row.untested,
      flaky: row.flaky,
    },
    pass_rate: row.pass_rate,
    duration_ms: row.duration_ms,
    gate: row.gate_evaluated_at
      ? { passed: row.gate_passed === true, evaluated_at: row.gate_evaluated_at.toISOString() }
      : null,
    build: row.build_id
      ? {
          id: row.build_id,
          name: row.build_name ?? '',
          build_number: row.build_number,
          branch: row.branch,
          commit_sha: row.commit_sha,
        }
      : null,
    created_at: row.created_at.toISOString(),
    submitted_at: isoOrNull(row.submitted_at),
    completed_at: isoOrNull(row.completed_at),
  };
}

/**
 * A project's overview (issue 31), in three reads the console makes side by side: the latest
 * run of each name with the series a trend can follow, one series' trend, and the causes of
 * failure that recur. The flaky list and a run's comparison, which the overview also shows,
 * are their own routes'.
 */
@Injectable()
export class ProjectOverviewService {
  constructor(
    private readonly repository: OverviewRepository,
    private readonly projects: ProjectLookup,
  ) {}

  async overview(caller: Caller, projectId: string): Promise<ProjectOverviewResponse> {
    const organizationId = await this.projects.organizationSeenBy(caller, projectId);
    const latest = await this.repository.latestRuns(organizationId, projectId);
    const series = await this.repository.series(organizationId, projectId);
    return {
      project_id: projectId,
      latest_runs: latest.map(toOverviewRun),
      series: series.map((s) => ({ ...s, last_run_at: s.last_run_at.toISOString() })),
    };
  }

  async trend(
    caller: Caller,
    projectId: string,
    query: OverviewTrendQuery,
  ): Promise<OverviewTrendResponse> {
    const organizationId = await this.projects.organizationSeenBy(caller, projectId);
    const series = { name: query.name, branch: query.branch ?? null };
    const runs = await this.repository.trend(organizationId, projectId, series, query.runs);
    return { ...series, runs: runs.reverse().map(toOverviewRun) };
  }

  async recurringFailures(
    caller: Caller,
    projectId: string,
    query: RecurringFailuresQuery,
  ): Promise<RecurringFailuresResponse> {
    const organizationId = await this.projects.organizationSeenBy(caller, projectId);
    const rows = await this.repository.recurringFailures(
      organizationId,
      projectId,
      { name: query.name ?? null, branch: query.branch ?? null },
      query.runs,
      query.limit,
    );
    const window = rows.filter((row) => row.signature === null);
    return {
      runs_read: window.length,
      latest_run_id: window.find((row) => row.latest_age === 1)?.last_run_id ?? null,
      data: rows
        .filter((row) => row.signature !== null)
        .map((row) => ({
          signature: row.signature as string,
          failure_type: row.failure_type,
          message: row.message,
          runs: row.runs as number,
          failures: row.failures as number,
          cases: row.cases as number,
          in_latest_run: row.latest_age === 1,
          last_run_id: row.last_run_id,
        })),
    };
  }
}
