import { Injectable } from '@nestjs/common';
import { arrayLiteral } from '../database/copy.js';
import { Transactions } from '../database/transactions.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { FORGET_RUN, RECORD_CASES, RECORD_RUN } from './case-outcomes.sql.js';

/** The SQL of `case_outcomes` (see `case-outcomes.sql.ts`), on the current transaction. */
@Injectable()
export class CaseOutcomesRepository {
  constructor(private readonly transactions: Transactions) {}

  async recordRun(run: TestRun): Promise<void> {
    await this.transactions.manager.query(RECORD_RUN, [
      run.id,
      run.position,
      run.projectId,
      run.organizationId,
    ]);
  }

  async forgetRun(run: TestRun): Promise<void> {
    await this.transactions.manager.query(FORGET_RUN, [
      run.id,
      run.position,
      run.projectId,
      run.organizationId,
    ]);
  }

  async recordCases(run: TestRun, caseIds: string[]): Promise<void> {
    await this.transactions.manager.query(RECORD_CASES, [
      run.id,
      run.position,
      run.projectId,
      run.organizationId,
      arrayLiteral(caseIds),
    ]);
  }
}
