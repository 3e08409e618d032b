import { Injectable } from '@nestjs/common';
import { lockForTransaction } from '../database/advisory-locks.js';
import { Transactions } from '../database/transactions.js';

/**
 * The per-organization release-assignment queue, kept as a dense `queue_position` column.
 * Every change takes the organization's queue lock (a transaction-scoped advisory lock), so
 * concurrent creations get consecutive positions and a build leaving the queue moves the
 * ones behind it up, all committed atomically with the change that caused it.
 */
@Injectable()
export class BuildQueue {
  constructor(private readonly transactions: Transactions) {}

  /** The position a new planned build takes: the end of the queue. */
  async append(organizationId: string): Promise<number> {
    await this.lock(organizationId);
    const manager = this.transactions.manager;
    const [row]: Array<{ next: number }> = await manager.query(
      `SELECT coalesce(max(queue_position), 0) + 1 AS next
         FROM build WHERE organization_id = $1 AND queue_position IS NOT NULL`,
      [organizationId],
    );
    return row.next;
  }

  /** Takes a build out of the queue (if it is in it) and closes the gap it leaves. */
  async remove(organizationId: string, buildId: string): Promise<void> {
    await this.lock(organizationId);
    const manager = this.transactions.manager;
    const [row]: Array<{ queue_position: number | null }> = await manager.query(
      'SELECT queue_position FROM build WHERE id = $1 AND organization_id = $2',
      [buildId, organizationId],
    );
    if (!row || row.queue_position === null) return;
    await manager.query('UPDATE build SET queue_position = NULL WHERE id = $1', [buildId]);
    await manager.query(
      `UPDATE build SET queue_position = queue_position - 1
        WHERE organization_id = $1 AND queue_position > $2`,
      [organizationId, row.queue_position],
    );
  }

  /**
   * Takes the organization's queue lock for the rest of the transaction. Callers that lock
   * build rows must take it first, so every transaction takes the two in the same order.
   */
  async lock(organizationId: string): Promise<void> {
    await lockForTransaction(this.transactions, `build-queue:${organizationId}`);
  }
}
