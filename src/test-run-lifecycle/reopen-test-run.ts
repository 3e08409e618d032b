import { Injectable } from '@nestjs/common';
import { EventsService } from '../events/events.service.js';
import { CaseOutcomes } from '../flakiness/case-outcomes.js';
import type { TestRunResponse } from '../testruns/dto/test-run.dto.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { toTestRunResponse } from '../testruns/test-run-response.js';
import { TestRunWrites } from '../testruns/test-run-writes.js';
import { TestRunsRepository } from '../testruns/test-runs.repository.js';

export interface ReopenTestRunCommand {
  /** Locked exclusively by the caller, in its transaction. */
  run: TestRun;
}

/**
 * Reopens a submitted or completed run the caller holds exclusively (409 from `in_progress`):
 * a CI job run again. The run takes results again; its outcomes leave the flaky list until it
 * is submitted or completed again (`MoveTestRun` then writes them anew, in the same slots, and
 * judges it again); its kept gate verdict stays until that completion. `testrun.reopened.v1`
 * carries the run as the API shows it.
 */
@Injectable()
export class ReopenTestRun {
  constructor(
    private readonly writes: TestRunWrites,
    private readonly runs: TestRunsRepository,
    private readonly outcomes: CaseOutcomes,
    private readonly events: EventsService,
  ) {}

  async execute({ run }: ReopenTestRunCommand): Promise<TestRunResponse> {
    await this.writes.moveTo(run, 'in_progress');
    await this.outcomes.forgetRun(run);
    await this.runs.notifyChanged(run);
    const response = toTestRunResponse(await this.writes.reread(run));
    await this.events.record(run.organizationId, 'testrun.reopened.v1', response);
    return response;
  }
}
