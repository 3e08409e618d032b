import type { Transactions } from './transactions.js';

/**
 * Takes the advisory lock named `name` until the current transaction ends, waiting for
 * another transaction that holds it. Names read `<what>:<id>` (`build-queue:<organization>`),
 * hashed to PostgreSQL's 64-bit lock key.
 */
export async function lockForTransaction(transactions: Transactions, name: string): Promise<void> {
  await transactions.manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}
