import { Injectable } from '@nestjs/common';
import { type Caller, OPERATOR, organizationFor } from '../common/caller.js';
import { Transactions } from '../database/transactions.js';
import type { SubmittedResultsResponse } from '../results/dto/result.dto.js';
import type { SubmitResultsCommand as SubmittedBody } from '../results/result-commands.js';
import { toResultResponse } from '../results/result-response.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { WriteRunResults } from './write-run-results.js';

export interface SubmitResultsCommand extends SubmittedBody {
  /** An organization (its runs only), or the operator (the run's organization). */
  caller: Caller;
  testRunId: string;
}

/** `POST /testruns/{id}/results`: all or nothing, into one run. */
@Injectable()
export class SubmitResults {
  constructor(
    private readonly transactions: Transactions,
    private readonly lookup: TestRunLookup,
    private readonly writeResults: WriteRunResults,
  ) {}

  async execute({
    testRunId,
    complete,
    items,
    caller,
  }: SubmitResultsCommand): Promise<SubmittedResultsResponse> {
    const organizationId = await organizationFor(
      caller,
      async () => (await this.lookup.find(OPERATOR, testRunId)).organizationId,
    );
    return this.transactions.run(async () => {
      const run = await this.lookup.lock(
        organizationId,
        testRunId,
        complete ? 'exclusive' : 'shared',
      );
      const written = await this.writeResults.execute({
        run,
        items,
        complete,
        options: { collect: true },
      });
      return {
        accepted: items.length,
        created_test_cases: written.createdTestCases,
        data: written.results.map(toResultResponse),
      };
    });
  }
}
