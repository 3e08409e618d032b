import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { TestCaseLookup } from '../projects/project-lookup.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { FailureGroupResponse, InternalFailureGroupResponse } from './dto/failure-group.dto.js';
import { type FailureGroupRow, InsightsRepository } from './insights.repository.js';

function toFailureGroupResponse(row: FailureGroupRow): FailureGroupResponse {
  return {
    signature: row.signature,
    failure_type: row.failure_type,
    message: row.message,
    count: row.size as number,
    test_case_ids: row.test_case_ids,
  };
}

/** A run's failing current results grouped by signature (CONTRACT §12). */
@Injectable()
export class RunFailuresService {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly runs: TestRunLookup,
    private readonly testCases: TestCaseLookup,
  ) {}

  async list(
    caller: Caller,
    runId: string,
    query: PaginationQuery,
  ): Promise<Page<FailureGroupResponse>> {
    const { groups, total } = await this.groups(caller, runId, query);
    return toPage(groups.map(toFailureGroupResponse), total, query);
  }

  /**
   * For the console: `list`, with the title and automation id of each group's cases, and the
   * result of each that the group counts.
   */
  async listWithCases(
    caller: Caller,
    runId: string,
    query: PaginationQuery,
  ): Promise<Page<InternalFailureGroupResponse>> {
    const { run, groups, total } = await this.groups(caller, runId, query);
    const names = await this.testCases.names(
      run.projectId,
      groups.flatMap((group) => group.test_case_ids),
    );
    const data = groups.map((group) => ({
      ...toFailureGroupResponse(group),
      test_cases: group.test_case_ids.map((caseId, i) => ({
        id: caseId,
        title: names.get(caseId)?.title ?? '',
        automation_id: names.get(caseId)?.automationId ?? null,
        result_id: group.result_ids[i],
      })),
    }));
    return toPage(data, total, query);
  }

  /** A page of the run's groups (404 if the caller may not see the run), and their number. */
  private async groups(caller: Caller, runId: string, query: PaginationQuery) {
    const run = await this.runs.find(caller, runId);
    const rows = await this.repository.failureGroups(run.organizationId, runId, query);
    return {
      run,
      groups: rows.filter((row) => row.size !== null),
      total: rows[0]?.total ?? 0,
    };
  }
}
