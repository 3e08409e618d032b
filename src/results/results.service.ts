import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { TestCaseLookup } from '../projects/project-lookup.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { FlakyTestsService } from '../flakiness/flaky-tests.service.js';
import {
  InternalResultQuery,
  type InternalResultResponse,
  type RunConfigurationsResponse,
  ResultQuery,
  ResultResponse,
} from './dto/result.dto.js';
import { TestResult } from './entities/test-result.entity.js';
import { ResultAttachments } from '../attachments/result-attachments.js';
import { toResultResponse } from './result-response.js';
import { ResultsRepository } from './results.repository.js';
import type { StoredResult } from './stored-result.js';

/** A stored result as the API shows it. */
export function entityToStored(result: TestResult): StoredResult {
  return {
    id: result.id,
    test_run_id: result.testRunId,
    test_case_id: result.testCaseId,
    status: result.status,
    duration_ms: result.durationMs,
    message: result.message,
    defects: result.defects,
    retries: result.retries,
    flaky: result.flaky,
    executed_at: result.executedAt,
    created_at: result.createdAt,
    failure_type: result.failureType,
    stack_trace: result.stackTrace,
    signature: result.signature,
    configuration: result.configuration || null,
    attempts: result.attempts ?? [],
  };
}

/** Reading a run's results; they are written by the run's lifecycle (`test-run-lifecycle/`). */
@Injectable()
export class ResultsService {
  constructor(
    private readonly testRuns: TestRunLookup,
    private readonly results: ResultsRepository,
    private readonly testCases: TestCaseLookup,
    private readonly flakyTests: FlakyTestsService,
    private readonly attachments: ResultAttachments,
  ) {}

  /** The run's results (404 if the caller may not see the run). */
  async list(caller: Caller, runId: string, query: ResultQuery): Promise<Page<ResultResponse>> {
    return this.pageOf(await this.testRuns.find(caller, runId), query);
  }

  /**
   * A page of a run the caller may see: `search` finds cases by title or automation id too;
   * `failuresFirst` lists failed and blocked results before the others.
   */
  private async pageOf(
    run: TestRun,
    query: ResultQuery,
    search?: string,
    failuresFirst = false,
  ): Promise<Page<ResultResponse>> {
    if (query.test_case_id) {
      const known = await this.testCases.inProject(run.projectId, query.test_case_id);
      if (!known)
        throw ApiError.invalidField(
          'test_case_id',
          'test_case_id does not name a test case of this run',
        );
    }
    const filter = {
      status: query.status,
      testCaseId: query.test_case_id,
      includeHistory: query.include_history ?? false,
      configuration: query.configuration,
      search,
      failuresFirst,
    };
    const [results, total] = await this.results.page(run.id, filter, query);
    const attachments = await this.attachments.of(
      run.organizationId,
      results.map((result) => result.id),
    );
    return toPage(
      results.map((result) => ({
        ...toResultResponse(entityToStored(result)),
        attachments: attachments.get(result.id) ?? [],
      })),
      total,
      query,
    );
  }

  /**
   * For the console: the run's results as `list` answers them (404 if the caller may not see
   * the run), found by `q` too, failed and blocked ones first with `order=failures_first`, each with its test case's title and automation id, and whether
   * the case is flaky or in quarantine.
   */
  async listWithCases(
    caller: Caller,
    runId: string,
    query: InternalResultQuery,
  ): Promise<Page<InternalResultResponse>> {
    const run = await this.testRuns.find(caller, runId);
    const page = await this.pageOf(run, query, query.q, query.order === 'failures_first');
    const caseIds = [...new Set(page.data.map((result) => result.test_case_id))];
    const names = await this.testCases.names(run.projectId, caseIds);
    const markers = await this.flakyTests.markers(run.organizationId, run.projectId, caseIds);
    return {
      ...page,
      data: page.data.map((result) => {
        const name = names.get(result.test_case_id);
        return {
          ...result,
          test_case_title: name?.title ?? '',
          automation_id: name?.automationId ?? null,
          case_flaky: markers.flaky.has(result.test_case_id),
          quarantined: markers.quarantined.has(result.test_case_id),
        };
      }),
    };
  }

  /**
   * For the console's configuration filter: the configurations of the run's current results
   * (null for none) and how many each has (404 if the caller may not see the run).
   */
  async configurations(caller: Caller, runId: string): Promise<RunConfigurationsResponse> {
    const run = await this.testRuns.find(caller, runId);
    const rows = await this.results.configurations(run.id);
    return {
      data: rows.map((row) => ({
        configuration: row.configuration === '' ? null : row.configuration,
        results: row.results,
      })),
    };
  }
}
