import { Injectable } from '@nestjs/common';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { FailureGroupResponse } from './dto/failure-group.dto.js';
import { InsightsRepository } from './insights.repository.js';

/** A run's failing current results grouped by signature (CONTRACT §12). */
@Injectable()
export class RunFailuresService {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly runs: TestRunLookup,
  ) {}

  async list(
    organizationId: string,
    runId: string,
    query: PaginationQuery,
  ): Promise<Page<FailureGroupResponse>> {
    await this.runs.find(organizationId, runId);
    const rows = await this.repository.failureGroups(organizationId, runId, query);
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
}
