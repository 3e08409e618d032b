import { Injectable } from '@nestjs/common';
import { type Caller, organizationOf } from '../common/caller.js';
import type { PaginationQuery } from '../common/pagination/pagination.js';
import { selectColumns } from '../database/entity-columns.js';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { Release } from './entities/release.entity.js';

/** Every column of `release`, by the entity's property names (a test checks them). */
export const RELEASE_COLUMNS = [
  'id',
  'organizationId',
  'projectId',
  'name',
  'version',
  'status',
  'targetDate',
  'releasedAt',
  'runsDeleted',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Release>;

// A `date` as the entity keeps it, `YYYY-MM-DD`: the driver would make it a local midnight.
const SELECT_RELEASE = `${selectColumns(RELEASE_COLUMNS.filter((p) => p !== 'targetDate'))}, target_date::text AS "targetDate"`;

/** Release $1 if it is organization $2's, or any organization's when $2 is null (the operator). */
const FIND = `SELECT ${SELECT_RELEASE} FROM release
  WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`;
const FIND_RELEASE = sql('releases.find', FIND);
const LOCK_RELEASE = sql('releases.lock', `${FIND} FOR UPDATE`);

/** Project $1's releases, newest first. */
const LIST = pagedSql('releases.list', {
  select: SELECT_RELEASE,
  from: 'release',
  where: 'project_id = $1',
  orderBy: 'created_at DESC, id DESC',
});

/** How releases are read: the queries of the `release` table. */
@Injectable()
export class ReleasesRepository {
  constructor(private readonly transactions: Transactions) {}

  /** A page of the project's releases, newest first, and their number. */
  async page(projectId: string, query: PaginationQuery): Promise<[Release[], number]> {
    const manager = this.transactions.manager;
    const [rows, total] = await fetchPage<Release>(manager, LIST, [projectId], query);
    return [rows.map((row) => manager.create(Release, row)), total];
  }

  /** The release if the caller may see it: the organization's, or any for the operator. */
  find(caller: Caller, id: string): Promise<Release | null> {
    return this.one(FIND_RELEASE, caller, id);
  }

  /** As `find`, row-locked for the rest of the transaction. */
  lock(caller: Caller, id: string): Promise<Release | null> {
    return this.one(LOCK_RELEASE, caller, id);
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

  private async one(statement: string, caller: Caller, id: string): Promise<Release | null> {
    const manager = this.transactions.manager;
    const [row]: Release[] = await manager.query(statement, [id, organizationOf(caller)]);
    return row ? manager.create(Release, row) : null;
  }
}
