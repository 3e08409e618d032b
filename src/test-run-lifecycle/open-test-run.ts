import { Injectable } from '@nestjs/common';
import type { Source } from '../builds/entities/build.entity.js';
import { EventsService } from '../events/events.service.js';
import type { ResultItem } from '../results/result-items.js';
import { ResultWriter } from '../results/result-writer.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { toTestRunResponse } from '../testruns/test-run-response.js';
import { type NewRun, TestRunWrites } from '../testruns/test-run-writes.js';

export interface OpenTestRunCommand {
  organizationId: string;
  source: Source;
  run: NewRun;
}

/**
 * A new run in the caller's transaction, checking every reference (400 naming the field),
 * with `test_case_ids` pre-filled as untested results: what creating a run and an ingest
 * without a run share.
 */
@Injectable()
export class OpenTestRun {
  constructor(
    private readonly runs: TestRunWrites,
    private readonly writer: ResultWriter,
    private readonly events: EventsService,
  ) {}

  async execute({ organizationId, source, run: fields }: OpenTestRunCommand): Promise<TestRun> {
    const run = await this.runs.insert(organizationId, source, fields);
    if (fields.testCaseIds?.length) {
      await this.writer.write(run, fields.testCaseIds.map(untested), {
        caseField: (i) => `test_case_ids[${i}]`,
        newRun: true,
      });
    }
    await this.events.record(organizationId, 'testrun.created.v1', toTestRunResponse(run));
    return run;
  }
}

function untested(testCaseId: string): ResultItem {
  return {
    testCaseId,
    automationId: null,
    title: null,
    section: null,
    status: 'untested',
    durationMs: null,
    message: null,
    failureType: null,
    stackTrace: null,
    defects: [],
    retries: 0,
    executedAt: null,
    // CONTRACT §13: pre-populated results have no configuration.
    configuration: null,
    attempts: [],
  };
}
