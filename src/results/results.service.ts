import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { isUuid } from '../common/ids.js';
import { fetchPage, type Page, toPage } from '../common/pagination/pagination.js';
import { Transactions } from '../database/transactions.js';
import { TestCase } from '../projects/entities/test-case.entity.js';
import { TestRun } from '../testruns/entities/test-run.entity.js';
import { TestRunsService } from '../testruns/testruns.service.js';
import {
  IngestQuery,
  IngestResponse,
  ResultQuery,
  ResultResponse,
  SubmittedResultsResponse,
} from './dto/result.dto.js';
import { TestResult } from './entities/test-result.entity.js';
import { TestRunCase } from './entities/test-run-case.entity.js';
import { parseJunitReport } from './junit/junit-parser.js';
import { parseResultItems, type ResultItem } from './result-items.js';
import { toResultResponse } from './result-response.js';
import { ResultWriter, type WriteOptions } from './result-writer.js';
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
  };
}

type Body = Record<string, unknown>;

/** Checks a JSON body's top-level shape: an object with only the allowed fields. */
function objectBody(body: unknown, allowed: readonly string[]): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ApiError.invalidField('body', 'The body must be a JSON object.');
  }
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  if (unknown !== undefined)
    throw ApiError.invalidField(unknown, `${unknown} is not a field of this request`);
  return body as Body;
}

function optionalBoolean(body: Body, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean')
    throw ApiError.invalidField(field, `${field} must be true or false`);
  return value;
}

function optionalId(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isUuid(value)) throw ApiError.invalidField(field, `${field} must be an id (UUID)`);
  return value.toLowerCase();
}

interface Ingest {
  projectId?: string;
  testRunId?: string;
  runName?: string;
  buildId?: string;
  releaseId?: string;
  complete: boolean;
  items: ResultItem[];
}

@Injectable()
export class ResultsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly testRuns: TestRunsService,
    private readonly writer: ResultWriter,
  ) {}

  /** `POST /testruns/{id}/results`: all or nothing, into one run. */
  async submit(
    organizationId: string,
    runId: string,
    body: unknown,
  ): Promise<SubmittedResultsResponse> {
    const fields = objectBody(body, ['results', 'complete']);
    const complete = optionalBoolean(fields, 'complete');
    const items = parseResultItems(fields.results);
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
  async ingest(
    organizationId: string,
    contentType: string | undefined,
    body: unknown,
    query: IngestQuery,
  ): Promise<IngestResponse> {
    const ingest = /xml/i.test(contentType ?? '')
      ? this.fromJunit(body, query)
      : this.fromJson(body, query);
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

  async list(
    organizationId: string,
    runId: string,
    query: ResultQuery,
  ): Promise<Page<ResultResponse>> {
    const manager = this.transactions.manager;
    const run = await this.testRuns.find(organizationId, runId);
    if (query.test_case_id) {
      const known = await manager.existsBy(TestCase, {
        id: query.test_case_id,
        projectId: run.projectId,
      });
      if (!known)
        throw ApiError.invalidField(
          'test_case_id',
          'test_case_id does not name a test case of this run',
        );
    }
    const qb = manager
      .createQueryBuilder(TestResult, 'result')
      .where('result.testRunId = :runId', { runId });
    if (!query.include_history) {
      qb.innerJoin(
        TestRunCase,
        'current',
        'current.resultId = result.id AND current.testRunId = result.testRunId',
      );
    }
    if (query.status) qb.andWhere('result.status = :status', { status: query.status });
    if (query.test_case_id)
      qb.andWhere('result.testCaseId = :caseId', { caseId: query.test_case_id });
    qb.orderBy('result.createdAt', 'DESC').addOrderBy('result.id', 'DESC');
    const [results, total] = await fetchPage(qb, query);
    return toPage(
      results.map((result) => toResultResponse(entityToStored(result))),
      total,
      query,
    );
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

  private async runFor(organizationId: string, ingest: Ingest): Promise<TestRun> {
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

  private fromJson(body: unknown, query: IngestQuery): Ingest {
    const queryField = Object.keys(query).find(
      (key) => query[key as keyof IngestQuery] !== undefined,
    );
    if (queryField) {
      throw ApiError.invalidField(
        queryField,
        'With a JSON body, send the parameters in the body, not the query',
      );
    }
    const fields = objectBody(body, [
      'project_id',
      'test_run_id',
      'run_name',
      'build_id',
      'release_id',
      'results',
      'complete',
    ]);
    const runName = fields.run_name;
    if (
      runName !== undefined &&
      runName !== null &&
      (typeof runName !== 'string' || runName.length < 1 || runName.length > 255)
    ) {
      throw ApiError.invalidField('run_name', 'run_name must be a string of 1 to 255 characters');
    }
    return {
      projectId: optionalId(fields, 'project_id'),
      testRunId: optionalId(fields, 'test_run_id'),
      runName: (runName as string | null | undefined) ?? undefined,
      buildId: optionalId(fields, 'build_id'),
      releaseId: optionalId(fields, 'release_id'),
      complete: optionalBoolean(fields, 'complete'),
      items: parseResultItems(fields.results),
    };
  }

  private fromJunit(body: unknown, query: IngestQuery): Ingest {
    if (typeof body !== 'string')
      throw ApiError.invalidField('body', 'Send the JUnit report as the body.');
    return {
      projectId: query.project_id,
      testRunId: query.test_run_id,
      runName: query.run_name,
      buildId: query.build_id,
      releaseId: query.release_id,
      complete: query.complete ?? false,
      items: parseJunitReport(body),
    };
  }
}
