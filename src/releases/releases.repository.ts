import { Injectable } from '@nestjs/common';
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

  find(organizationId: string, id: string): Promise<Release | null> {
    return this.transactions.manager.findOneBy(Release, { id, organizationId });
  }

  /** The release, whatever its organization (the internal API). */
  findAnywhere(id: string): Promise<Release | null> {
    return this.transactions.manager.findOneBy(Release, { id });
  }

  /** The release (of whatever organization), row-locked for the rest of the transaction. */
  lockAnywhere(id: string): Promise<Release | null> {
    return this.transactions.manager.findOne(Release, {
      where: { id },
      lock: { mode: 'pessimistic_write' },
    });
  }
}
