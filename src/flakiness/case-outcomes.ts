import { Injectable } from '@nestjs/common';
import type { StoredResult } from '../results/stored-result.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { CaseOutcomesRepository, type RunPlace } from './case-outcomes.repository.js';

/**
 * Keeps `case_outcomes`, the flaky list's summary of each case's outcome per run, in the
 * transaction of the change that alters it: a run submitted, completed or reopened, or results
 * written into a run already submitted. Results into a run in progress change nothing here.
 */
@Injectable()
export class CaseOutcomes {
  constructor(private readonly outcomes: CaseOutcomesRepository) {}

  /** `run` has just left `in_progress`: its cases' outcomes count from now on. */
  considerRun(run: TestRun): Promise<void> {
    return this.outcomes.recordRun(run);
  }

  /**
   * `run` has just been reopened: its cases' outcomes stop counting until it leaves
   * `in_progress` again, when `considerRun` writes them anew in the same slots. Also for a run
   * deleted by retention: its characters go with it.
   */
  forgetRun(run: RunPlace): Promise<void> {
    return this.outcomes.forgetRun(run);
  }

  /**
   * Project `projectId`'s runs up to `position` are all deleted (retention, the oldest first):
   * their characters go, in one write per case.
   */
  forgetRunsUpTo(projectId: string, position: number): Promise<void> {
    return this.outcomes.forgetRunsUpTo(projectId, position);
  }

  /** `results` (in case order) were just written into `run`, which is submitted. */
  recordResults(run: TestRun, results: StoredResult[]): Promise<void> {
    return this.outcomes.recordCases(
      run,
      results.map((result) => result.test_case_id),
    );
  }
}
