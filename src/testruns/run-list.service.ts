import { Injectable } from '@nestjs/common';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { ProjectLookup } from '../projects/project-lookup.js';
import type { ProjectRunListQuery, TestRunListItemResponse } from './dto/test-run-list.dto.js';
import type { TestRun } from './entities/test-run.entity.js';
import { type ListedRun, RunListRepository } from './run-list.repository.js';
import { toTestRunResponse } from './test-run-response.js';

/**
 * The console's runs list (issue 31): a project's runs, each with its build (number, branch,
 * commit), how long it took, its pass rate and configurations beside its status, counts and
 * kept gate verdict, so that sixteen runs of one nightly job tell themselves apart.
 */
@Injectable()
export class RunListService {
  constructor(
    private readonly runs: RunListRepository,
    private readonly projects: ProjectLookup,
  ) {}

  /** A page of the project's runs that match the query, newest first (404: no such project). */
  async list(
    projectId: string,
    query: ProjectRunListQuery,
  ): Promise<Page<TestRunListItemResponse>> {
    const organizationId = await this.projects.organizationOf(projectId);
    const [listed, total] = await this.runs.page(
      organizationId,
      projectId,
      { status: query.status, name: query.name, branch: query.branch },
      query,
    );
    return toPage(listed.map(toTestRunListItem), total, query);
  }
}

/**
 * The gate's pass rate (CONTRACT §12's `pass_rate`): passed over executed, every current result
 * but the untested ones; null when none executed.
 */
export function passRate(run: Pick<TestRun, 'total' | 'untested' | 'passed'>): number | null {
  const executed = run.total - run.untested;
  return executed === 0 ? null : Math.round((run.passed / executed) * 10_000) / 10_000;
}

/** A run's wall time: from its creation to its completion, or else its submission. */
function durationMs(run: TestRun): number | null {
  const end = run.completedAt ?? run.submittedAt;
  return end === null ? null : Math.max(0, end.getTime() - run.createdAt.getTime());
}

function toTestRunListItem({ run, build }: ListedRun): TestRunListItemResponse {
  return {
    ...toTestRunResponse(run),
    build:
      build === null || run.buildId === null
        ? null
        : {
            id: run.buildId,
            name: build.name,
            build_number: build.buildNumber,
            branch: build.branch,
            commit_sha: build.commitSha,
          },
    duration_ms: durationMs(run),
    pass_rate: passRate(run),
    configurations: run.configurations,
  };
}
