import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Database transactions with one ambient "current transaction" per request. Services write
 * through `run()`: inside a transaction opened by a caller further up (the idempotency
 * interceptor opens one so the stored response commits with the change), they join it;
 * otherwise they get their own.
 */
@Injectable()
export class Transactions {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const manager = this.current.getStore();
    return manager ? work(manager) : this.begin(work);
  }

  /** A new transaction that everything called from `work` joins. */
  begin<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => this.current.run(manager, () => work(manager)));
  }

  /** The manager to read with: the current transaction's, else the pool's. */
  get manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }
}
