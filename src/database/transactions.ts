import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

interface Current {
  manager: EntityManager;
  /** Run last inside the transaction, once its work is done. */
  finishing: Array<() => Promise<void>>;
  /** Run once the transaction has committed. */
  committed: Array<() => void>;
}

/**
 * Database transactions with one ambient "current transaction" per request. Services write
 * through `run()`: inside a transaction opened by a caller further up (the idempotency
 * interceptor opens one so the stored response commits with the change), they join it;
 * otherwise they get their own.
 */
@Injectable()
export class Transactions {
  private readonly current = new AsyncLocalStorage<Current>();
  private readonly logger = new Logger(Transactions.name);

  // The one owner of the DataSource: everything else reaches the database through this.
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const current = this.current.getStore();
    return current ? work(current.manager) : this.begin(work);
  }

  /** A new transaction that everything called from `work` joins. */
  async begin<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const committed: Array<() => void> = [];
    const finishing: Array<() => Promise<void>> = [];
    const result = await this.dataSource.transaction((manager) =>
      this.current.run({ manager, finishing, committed }, async () => {
        const value = await work(manager);
        for (let next = finishing.shift(); next; next = finishing.shift()) await next();
        return value;
      }),
    );
    for (const callback of committed) {
      try {
        callback();
      } catch (error) {
        // The change is committed: what runs after it cannot fail the request.
        this.logger.error(`after-commit callback failed: ${(error as Error).message}`);
      }
    }
    return result;
  }

  /**
   * Runs `work` at the end of the current transaction, after everything else it does and
   * before it commits: for a statement whose row lock should be held as briefly as possible
   * (a counter other requests also take). Only inside a transaction.
   */
  beforeCommit(work: () => Promise<void>): void {
    const current = this.current.getStore();
    if (!current) throw new Error('beforeCommit needs a transaction');
    current.finishing.push(work);
  }

  /**
   * Runs `callback` once the current transaction has committed (never if it rolls back), or
   * at once outside a transaction: for what must only be known of committed data.
   */
  afterCommit(callback: () => void): void {
    const current = this.current.getStore();
    if (current) current.committed.push(callback);
    else callback();
  }

  /** The manager to read with: the current transaction's, else the pool's. */
  get manager(): EntityManager {
    return this.current.getStore()?.manager ?? this.dataSource.manager;
  }

  /**
   * The pool's manager, never the current transaction's: for a statement that must commit on
   * its own whatever the request's transaction does (an idempotency claim, a counted call, a
   * webhook attempt's lease). Everything else uses `manager`, `run` or `begin`.
   */
  get outside(): EntityManager {
    return this.dataSource.manager;
  }
}
