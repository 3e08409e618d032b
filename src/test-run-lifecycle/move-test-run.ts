import { Injectable } from '@nestjs/common';
import { EventsService } from '../events/events.service.js';
import { CaseOutcomes } from '../flakiness/case-outcomes.js';
import { RunVerdicts } from '../insights/run-verdicts/run-verdicts.js';
import type { TestRunResponse } from '../testruns/dto/test-run.dto.js';
import type { TestRun, TestRunStatus } from '../testruns/entities/test-run.entity.js';
import { toTestRunResponse } from '../testruns/test-run-response.js';
import { TestRunWrites } from '../testruns/test-run-writes.js';
import { TestRunsRepository } from '../testruns/test-runs.repository.js';

export interface MoveTestRunCommand {
  /** Locked exclusively by the caller, in its transaction. */
  run: TestRun;
  /** Back to `in_progress` is a reopening: `ReopenTestRun`. */
  status: Exclude<TestRunStatus, 'in_progress'>;
}

/**
 * Moves a run the caller holds exclusively to `submitted` or `completed` (409 for a move not
 * allowed), keeps a completion's gate verdict on the run, and writes the matching event, all in
 * the same transaction. A reopened run moves here again, and is judged again.
 */
@Injectable()
export class MoveTestRun {
  constructor(
    private readonly writes: TestRunWrites,
    private readonly runs: TestRunsRepository,
    private readonly outcomes: CaseOutcomes,
    private readonly verdicts: RunVerdicts,
    private readonly events: EventsService,
  ) {}

  async execute({ run, status }: MoveTestRunCommand): Promise<TestRunResponse> {
    await this.writes.moveTo(run, status);
    // Its results count in the flaky list once it leaves in_progress, at its number; after a
    // reopening, in the same slots again (`ReopenTestRun` cleared them).
    if (run.status === 'in_progress') {
      await this.writes.number(run);
      await this.outcomes.considerRun(run);
    }
    // The event also says how the run compares with its baseline and whether it passes the
    // quality gate (CONTRACT §12), as of this transaction: a pipeline can act on it alone.
    const verdict = await this.verdicts.of(run.organizationId, run.id);
    // A completion's verdict is kept on the run, from this same evaluation, so the run says
    // later what its pipeline was told, whatever the quarantine has become since.
    if (status === 'completed') {
      await this.writes.keepGate(run, verdict.gate.passed, new Date(verdict.gate.evaluated_at));
    }
    await this.runs.notifyChanged(run);
    const response = toTestRunResponse(await this.writes.reread(run));
    await this.events.record(
      run.organizationId,
      status === 'submitted' ? 'testrun.submitted.v1' : 'testrun.completed.v1',
      { ...response, ...verdict },
    );
    return response;
  }
}
