import { Injectable } from '@nestjs/common';
import { type Caller, OPERATOR, organizationFor } from '../common/caller.js';
import { Transactions } from '../database/transactions.js';
import type { TestRunResponse } from '../testruns/dto/test-run.dto.js';
import type { TestRunStatus } from '../testruns/entities/test-run.entity.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { MoveTestRun } from './move-test-run.js';
import { ReopenTestRun } from './reopen-test-run.js';

export interface TransitionTestRunCommand {
  /** An organization (its runs only), or the operator (the run's organization). */
  caller: Caller;
  testRunId: string;
  status: TestRunStatus;
}

/**
 * `PATCH /testruns/{id}`: submits, completes or reopens a run (409 for any other move, the same
 * status included).
 */
@Injectable()
export class TransitionTestRun {
  constructor(
    private readonly transactions: Transactions,
    private readonly lookup: TestRunLookup,
    private readonly move: MoveTestRun,
    private readonly reopen: ReopenTestRun,
  ) {}

  async execute({ testRunId, status, caller }: TransitionTestRunCommand): Promise<TestRunResponse> {
    const organizationId = await organizationFor(
      caller,
      async () => (await this.lookup.find(OPERATOR, testRunId)).organizationId,
    );
    return this.transactions.run(async () => {
      const run = await this.lookup.lock(organizationId, testRunId);
      if (status === 'in_progress') return this.reopen.execute({ run });
      return this.move.execute({ run, status });
    });
  }
}
