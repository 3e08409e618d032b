import { Injectable } from '@nestjs/common';
import { type Caller, tenantOf } from '../common/caller.js';
import { fetchPage, PaginationQuery } from '../common/pagination/pagination.js';
import { Transactions } from '../database/transactions.js';
import { Release } from './entities/release.entity.js';

/** How releases are read: the queries of the `release` table. */
@Injectable()
export class ReleasesRepository {
  constructor(private readonly transactions: Transactions) {}

  /** A page of the project's releases, newest first, and their number. */
  page(projectId: string, query: PaginationQuery): Promise<[Release[], number]> {
    return fetchPage(
      this.transactions.manager
        .createQueryBuilder(Release, 'release')
        .where('release.projectId = :projectId', { projectId })
        .orderBy('release.createdAt', 'DESC')
        .addOrderBy('release.id', 'DESC'),
      query,
    );
  }

  /** The release if the caller may see it: the organization's, or any for the operator. */
  find(caller: Caller, id: string): Promise<Release | null> {
    return this.transactions.manager.findOneBy(Release, { id, ...tenantOf(caller) });
  }

  /** As `find`, row-locked for the rest of the transaction. */
  lock(caller: Caller, id: string): Promise<Release | null> {
    return this.transactions.manager.findOne(Release, {
      where: { id, ...tenantOf(caller) },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Inserts a release, in the caller's transaction. */
  insert(fields: Partial<Release>): Promise<Release> {
    const manager = this.transactions.manager;
    return manager.save(manager.create(Release, fields));
  }

  /** Writes the changed columns of a release read before, in the caller's transaction. */
  save(release: Release): Promise<Release> {
    return this.transactions.manager.save(release);
  }
}
