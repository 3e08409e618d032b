import type { Transactions } from './transactions.js';

/** Rows one statement of a clean-up deletes at most. */
const BATCH_ROWS = 10_000;

/**
 * Runs a clean-up DELETE in statements of at most 10,000 rows until one deletes fewer, so a
 * long backlog (a first clean-up, or one after an outage) is removed in statements that each
 * end well within the statement timeout, instead of one that never does. `statement` gets
 * the parameter number that holds the batch size, for its `LIMIT`. Returns the rows deleted.
 */
export async function deleteInBatches(
  transactions: Transactions,
  statement: (limitParameter: string) => string,
  parameters: unknown[] = [],
): Promise<number> {
  const sql = statement(`$${parameters.length + 1}`);
  const manager = transactions.manager;
  let total = 0;
  for (;;) {
    const [, deleted]: [unknown[], number] = await manager.query(sql, [...parameters, BATCH_ROWS]);
    total += deleted;
    if (deleted < BATCH_ROWS) return total;
  }
}
