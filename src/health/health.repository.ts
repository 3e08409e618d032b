import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';

/** The readiness check's statement: any answer means the database serves queries. */
const DATABASE_ANSWERS = sql('health.databaseAnswers', 'SELECT 1');

/** The one statement of the health checks. */
@Injectable()
export class HealthRepository {
  constructor(private readonly transactions: Transactions) {}

  /** Asks the pool itself, whatever transaction the caller may be in; throws if it cannot. */
  async databaseAnswers(): Promise<void> {
    await this.transactions.outside.query(DATABASE_ANSWERS);
  }
}
