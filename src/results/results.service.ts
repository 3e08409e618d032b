import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { type Page, toPage } from '../common/pagination/pagination.js';
import { Transactions } from '../database/transactions.js';
import { TestCaseLookup } from '../projects/project-lookup.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { TestRunsService } from '../testruns/testruns.service.js';
import { FlakyTestsService } from '../flakiness/flaky-tests.service.js';
import {
  IngestResponse,
  InternalResultQuery,
  type InternalResultResponse,
  ResultQuery,
  ResultResponse,
  SubmittedResultsResponse,
} from './dto/result.dto.js';
import { TestResult } from './entities/test-result.entity.js';
import type { IngestCommand, SubmitResultsCommand } from './result-commands.js';
import type { ResultItem } from './result-items.js';
import { toResultResponse } from './result-response.js';
import { ResultWriter, type WriteOptions } from './result-writer.js';
import { ResultsRepository } from './results.repository.js';
import type { StoredResult } from './stored-result.js';

function entityToStored(result: TestResult): StoredResult {
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
  };
}

@Injectable()
export class ResultsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly testRuns: TestRunsService,
    private readonly writer: ResultWriter,
    private readonly results: ResultsRepository,
    private readonly testCases: TestCaseLookup,
    private readonly flakyTests: FlakyTestsService,
  ) {}

  /** `POST /testruns/{id}/results`: all or nothing, into one run. */
  async submit(
    organizationId: string,
    runId: string,
    { complete, items }: SubmitResultsCommand,
  ): Promise<SubmittedResultsResponse> {
    return this.transactions.run(async () => {
      const run = await this.testRuns.lock(
        organizationId,
        runId,
        complete ? 'exclusive' : 'shared',
      );
      const written = await this.store(run, items, complete, { collect: true });
      return {
        accepted: items.length,
        created_test_cases: written.createdTestCases,
        data: written.results.map(toResultResponse),
      };
    });
  }

  /** `POST /results/ingest`: JSON results or a JUnit XML report, into a given or new run. */
  async ingest(organizationId: string, ingest: IngestCommand): Promise<IngestResponse> {
    return this.transactions.run(async () => {
      const run = await this.runFor(organizationId, ingest);
      const written = await this.store(run, ingest.items, ingest.complete, {
        newRun: ingest.testRunId === undefined,
      });
      return {
        test_run_id: run.id,
        accepted: ingest.items.length,
        created_test_cases: written.createdTestCases,
      };
    });
  }

  /**
   * For the internal API: `submit` as the operator, into the run's organization (404 if the
   * run is unknown).
   */
  async submitAnywhere(
    runId: string,
    command: SubmitResultsCommand,
  ): Promise<SubmittedResultsResponse> {
    const run = await this.testRuns.findAnywhere(runId);
    return this.submit(run.organizationId, runId, command);
  }

  /** `search`: only cases whose title or automation id contains it (the console's). */
  async list(
    organizationId: string,
    runId: string,
    query: ResultQuery,
    search?: string,
  ): Promise<Page<ResultResponse>> {
    const run = await this.testRuns.find(organizationId, runId);
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
      search,
    };
    const [results, total] = await this.results.page(runId, filter, query);
    return toPage(
      results.map((result) => toResultResponse(entityToStored(result))),
      total,
      query,
    );
  }

  /**
   * For the internal API: the run's results as `list` answers them (in the run's
   * organization; 404 if the run is unknown), found by `q` too, each with its test case's title
   * and automation id, and whether the case is flaky or in quarantine.
   */
  async listAnywhere(
    runId: string,
    query: InternalResultQuery,
  ): Promise<Page<InternalResultResponse>> {
    const run = await this.testRuns.findAnywhere(runId);
    const page = await this.list(run.organizationId, runId, query, query.q);
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

  private async store(
    run: TestRun,
    items: ResultItem[],
    complete: boolean,
    options: WriteOptions = {},
  ) {
    if (run.status === 'completed') {
      throw ApiError.conflict(
        'run_completed',
        'The test run is completed and takes no more results.',
      );
    }
    const written = await this.writer.write(run, items, options);
    if (complete) await this.testRuns.transition(run, 'completed');
    return written;
  }

  private async runFor(organizationId: string, ingest: IngestCommand): Promise<TestRun> {
    if (ingest.testRunId === undefined) {
      if (ingest.projectId === undefined) {
        throw ApiError.invalidField(
          'project_id',
          'project_id is required when no test_run_id is given',
        );
      }
      return this.testRuns.open(organizationId, 'api', {
        projectId: ingest.projectId,
        name: ingest.runName ?? `Ingested ${new Date().toISOString()}`,
        buildId: ingest.buildId,
        releaseId: ingest.releaseId,
      });
    }
    const mode = ingest.complete ? 'exclusive' : 'shared';
    const run = await this.testRuns
      .lock(organizationId, ingest.testRunId, mode)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === ErrorCode.NotFound) {
          throw ApiError.invalidField(
            'test_run_id',
            'test_run_id does not name a test run of this organization',
          );
        }
        throw error;
      });
    const mismatch = (
      [
        ['project_id', ingest.projectId, run.projectId],
        ['build_id', ingest.buildId, run.buildId],
        ['release_id', ingest.releaseId, run.releaseId],
      ] as const
    ).find(([, given, actual]) => given !== undefined && given !== actual);
    if (mismatch)
      throw ApiError.invalidField(mismatch[0], `${mismatch[0]} differs from the test run's`);
    return run;
  }
}
