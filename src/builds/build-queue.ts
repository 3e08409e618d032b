import { Injectable } from '@nestjs/common';
import { lockForTransaction } from '../database/advisory-locks.js';
import { Transactions } from '../database/transactions.js';
import { BuildsRepository } from './builds.repository.js';

/**
 * The per-organization release-assignment queue, kept as a dense `queue_position` column.
 * Every change takes the organization's queue lock (a transaction-scoped advisory lock), so
 * concurrent creations get consecutive positions and a build leaving the queue moves the
 * ones behind it up, all committed atomically with the change that caused it.
 */
@Injectable()
export class BuildQueue {
  constructor(
    private readonly transactions: Transactions,
    private readonly builds: BuildsRepository,
  ) {}

  /** The position a new planned build takes: the end of the queue. */
  async append(organizationId: string): Promise<number> {
    await this.lock(organizationId);
    return this.builds.nextQueuePosition(organizationId);
  }

  /** Takes a build out of the queue (if it is in it) and closes the gap it leaves. */
  async remove(organizationId: string, buildId: string): Promise<void> {
    await this.lock(organizationId);
    const position = await this.builds.queuePositionOf(organizationId, buildId);
    if (position === null || position === undefined) return;
    await this.builds.leaveQueue(organizationId, buildId, position);
  }

  /**
   * Takes the organization's queue lock for the rest of the transaction. Callers that lock
   * build rows must take it first, so every transaction takes the two in the same order.
   */
  async lock(organizationId: string): Promise<void> {
    await lockForTransaction(this.transactions, `build-queue:${organizationId}`);
  }
}
