import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { Baselines } from './baselines.js';
import { ComparisonItem, ComparisonQuery, ComparisonResponse } from './dto/comparison.dto.js';
import { type ComparisonRow, InsightsRepository } from './insights.repository.js';

function toComparisonItem(row: ComparisonRow): ComparisonItem {
  return {
    test_case_id: row.test_case_id,
    configuration: row.configuration || null,
    automation_id: row.automation_id,
    title: row.title,
    status: row.status,
    baseline_status: row.baseline_status,
    message: row.message,
    signature: row.signature,
  };
}

/** A run compared with its baseline, case by case, in one statement (CONTRACT §12). */
@Injectable()
export class RunComparisonService {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly runs: TestRunLookup,
    private readonly baselines: Baselines,
  ) {}

  async compare(
    caller: Caller,
    runId: string,
    query: ComparisonQuery,
  ): Promise<ComparisonResponse> {
    const run = await this.runs.find(caller, runId);
    const { organizationId } = run;
    const baselineRunId = await this.baselines.of(organizationId, run, query.baseline_run_id);
    const rows = await this.repository.comparison(organizationId, run.id, baselineRunId);
    const [first] = rows;
    const response: ComparisonResponse = {
      test_run_id: run.id,
      baseline_run_id: baselineRunId,
      summary: {
        new_failures: first.new_failures,
        still_failing: first.still_failing,
        fixed: first.fixed,
        new_tests: first.new_tests,
        missing_tests: first.missing_tests,
        flaky: first.flaky,
      },
      new_failures: [],
      still_failing: [],
      fixed: [],
    };
    for (const row of rows) {
      if (row.category !== null) response[row.category].push(toComparisonItem(row));
    }
    return response;
  }
}
