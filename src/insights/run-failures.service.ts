import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { TestCaseLookup } from '../projects/project-lookup.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { FailureGroupResponse, InternalFailureGroupResponse } from './dto/failure-group.dto.js';
import { InsightsRepository } from './insights.repository.js';

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
    const run = await this.runs.find(caller, runId);
    const rows = await this.repository.failureGroups(run.organizationId, runId, query);
    const groups = rows
      .filter((row) => row.size !== null)
      .map((row) => ({
        signature: row.signature,
        failure_type: row.failure_type,
        message: row.message,
        count: row.size as number,
        test_case_ids: row.test_case_ids,
      }));
    return toPage(groups, rows[0]?.total ?? 0, query);
  }

  /** For the console: `list`, with the title and automation id of each group's cases. */
  async listWithCases(
    caller: Caller,
    runId: string,
    query: PaginationQuery,
  ): Promise<Page<InternalFailureGroupResponse>> {
    const { projectId } = await this.runs.find(caller, runId);
    const page = await this.list(caller, runId, query);
    const names = await this.testCases.names(
      projectId,
      page.data.flatMap((group) => group.test_case_ids),
    );
    return {
      ...page,
      data: page.data.map((group) => ({
        ...group,
        test_cases: group.test_case_ids.map((caseId) => ({
          id: caseId,
          title: names.get(caseId)?.title ?? '',
          automation_id: names.get(caseId)?.automationId ?? null,
        })),
      })),
    };
  }
}
