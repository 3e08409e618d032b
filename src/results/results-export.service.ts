import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import type { CsvDownload } from '../common/http/csv-download.js';
import type { CsvValue } from '../common/csv.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { type ExportedResult, ResultsExportRepository } from './results-export.repository.js';

/** The export's columns, in order: what a spreadsheet of a run's results needs. */
const HEADER = [
  'test_case_id',
  'automation_id',
  'title',
  'configuration',
  'status',
  'duration_ms',
  'retries',
  'flaky',
  'failure_type',
  'message',
  'defects',
  'executed_at',
  'stored_at',
  'result_id',
] as const;

function row(result: ExportedResult): CsvValue[] {
  return [
    result.test_case_id,
    result.automation_id,
    result.title,
    result.configuration === '' ? null : result.configuration,
    result.status,
    result.duration_ms,
    result.retries,
    result.flaky,
    result.failure_type,
    result.message,
    result.defects.length === 0 ? null : result.defects.join(' '),
    result.executed_at?.toISOString() ?? null,
    result.created_at.toISOString(),
    result.result_id,
  ];
}

/** A run's current results as a CSV file (issue 31), streamed from the database. */
@Injectable()
export class ResultsExportService {
  constructor(
    private readonly testRuns: TestRunLookup,
    private readonly exports: ResultsExportRepository,
  ) {}

  /**
   * Each slot's current result of the run, in its case's and configuration's order (404 if the
   * caller may not see the run). The stack traces are left out: the result's page shows one.
   */
  async runResults(caller: Caller, runId: string): Promise<CsvDownload> {
    const run = await this.testRuns.find(caller, runId);
    const exports = this.exports;
    return {
      filename: `${run.name} results.csv`,
      header: HEADER,
      pages: (async function* () {
        for await (const page of exports.pages(run.organizationId, run.id)) yield page.map(row);
      })(),
    };
  }
}
