import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { isoOrNull } from '../common/serialization.js';
import { CaseHistoryItem, CaseHistoryQuery } from './dto/case-history.dto.js';
import { type HistoryRow, InsightsRepository } from './insights.repository.js';

export function toCaseHistoryItem(row: HistoryRow): CaseHistoryItem {
  return {
    id: row.id as string,
    test_run_id: row.test_run_id,
    test_case_id: row.test_case_id,
    status: row.status,
    duration_ms: row.duration_ms,
    message: row.message,
    defects: row.defects,
    retries: row.retries,
    flaky: row.flaky,
    executed_at: isoOrNull(row.executed_at),
    created_at: row.created_at.toISOString(),
    failure_type: row.failure_type,
    stack_trace: row.stack_trace,
    signature: row.signature,
    test_run_name: row.test_run_name,
    branch: row.branch,
    commit_sha: row.commit_sha,
  };
}

/** A test case's results across every run (CONTRACT §12). */
@Injectable()
export class CaseHistoryService {
  constructor(private readonly repository: InsightsRepository) {}

  async list(
    organizationId: string,
    testCaseId: string,
    query: CaseHistoryQuery,
  ): Promise<Page<CaseHistoryItem>> {
    if (!(await this.repository.testCaseExists(organizationId, testCaseId)))
      throw ApiError.notFound('test_case');
    if (query.test_run_id && !(await this.repository.run(organizationId, query.test_run_id)))
      throw ApiError.invalidField(
        'test_run_id',
        'test_run_id does not name a test run of this organization',
      );
    const rows = await this.repository.caseHistory(
      organizationId,
      testCaseId,
      {
        testRunId: query.test_run_id,
        branch: query.branch,
        status: query.status,
        createdAfter: query.created_after,
        createdBefore: query.created_before,
      },
      query,
    );
    const total = rows[0]?.total ?? 0;
    const items = rows.filter((row) => row.id !== null).map(toCaseHistoryItem);
    return toPage(items, total, query);
  }
}
