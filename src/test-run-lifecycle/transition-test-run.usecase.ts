import { Injectable } from '@nestjs/common';
import { OPERATOR } from '../common/caller.js';
import { Transactions } from '../database/transactions.js';
import type { TestRunResponse } from '../testruns/dto/test-run.dto.js';
import type { TestRunStatus } from '../testruns/entities/test-run.entity.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { MoveTestRun } from './move-test-run.js';

export interface TransitionTestRunCommand {
  /** Absent for the operator (internal API): the run's organization (404 if none). */
  organizationId?: string;
  testRunId: string;
  status: TestRunStatus;
}

/** `PATCH /testruns/{id}`: submits or completes a run (409 for any other move). */
@Injectable()
export class TransitionTestRun {
  constructor(
    private readonly transactions: Transactions,
    private readonly lookup: TestRunLookup,
    private readonly move: MoveTestRun,
  ) {}

  async execute({
    testRunId,
    status,
    ...caller
  }: TransitionTestRunCommand): Promise<TestRunResponse> {
    const organizationId =
      caller.organizationId ?? (await this.lookup.find(OPERATOR, testRunId)).organizationId;
    return this.transactions.run(async () => {
      const run = await this.lookup.lock(organizationId, testRunId);
      return this.move.execute({ run, status });
    });
  }
}
