import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { Caller } from '../common/caller.js';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { TestCaseLookup } from '../projects/project-lookup.js';
import { toResultResponse } from '../results/result-response.js';
import type { StoredResult } from '../results/stored-result.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { CaseHistoryItem, CaseHistoryQuery } from './dto/case-history.dto.js';
import { type HistoryRow, InsightsRepository } from './insights.repository.js';

export function toCaseHistoryItem(row: HistoryRow): CaseHistoryItem {
  // The run's fields go onto the result's own object: a spread copy of it was the largest
  // allocation of the page, and slower to serialize.
  const item = toResultResponse(row as StoredResult) as CaseHistoryItem;
  item.test_run_name = row.test_run_name;
  item.build_id = row.build_id;
  item.build_name = row.build_name;
  item.build_number = row.build_number;
  item.branch = row.branch;
  item.commit_sha = row.commit_sha;
  return item;
}

/** A test case's results across every run (CONTRACT §12). */
@Injectable()
export class CaseHistoryService {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly runs: TestRunLookup,
    private readonly cases: TestCaseLookup,
  ) {}

  /** The case's results; the operator's route names it without its organization (404 if none). */
  async list(
    caller: Caller,
    testCaseId: string,
    query: CaseHistoryQuery,
  ): Promise<Page<CaseHistoryItem>> {
    const organizationId =
      caller.kind === 'organization'
        ? caller.organizationId
        : (await this.cases.find(caller, testCaseId)).organizationId;
    const rows = await this.repository.caseHistory(
      organizationId,
      testCaseId,
      {
        testRunId: query.test_run_id,
        branch: query.branch,
        status: query.status,
        createdAfter: query.created_after,
        createdBefore: query.created_before,
        configuration: query.configuration,
      },
      query,
    );
    if (!rows[0].case_found) throw ApiError.notFound('test_case');
    if (query.test_run_id && !(await this.runs.findOrNull(organizationId, query.test_run_id)))
      throw ApiError.invalidField(
        'test_run_id',
        'test_run_id does not name a test run of this organization',
      );
    const total = rows[0].total;
    const items = rows.filter((row) => row.id !== null).map(toCaseHistoryItem);
    return toPage(items, total, query);
  }
}
