import { Injectable } from '@nestjs/common';
import type { CreatedBetweenQuery, PaginationQuery } from '../common/pagination/pagination.js';
import { type Caller, organizationOf } from '../common/caller.js';
import { selectColumns } from '../database/entity-columns.js';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { Build } from './entities/build.entity.js';

const NEXT_QUEUE_POSITION = sql(
  'builds.nextQueuePosition',
  `SELECT coalesce(max(queue_position), 0) + 1 AS next
         FROM build WHERE organization_id = $1 AND queue_position IS NOT NULL`,
);
const QUEUE_POSITION = sql(
  'builds.queuePosition',
  'SELECT queue_position FROM build WHERE id = $1 AND organization_id = $2',
);
const LEAVE_QUEUE = sql(
  'builds.leaveQueue',
  'UPDATE build SET queue_position = NULL WHERE id = $1',
);
const CLOSE_QUEUE_GAP = sql(
  'builds.closeQueueGap',
  `UPDATE build SET queue_position = queue_position - 1
        WHERE organization_id = $1 AND queue_position > $2`,
);
const COUNT_IN_RELEASES = sql(
  'builds.countInReleases',
  `SELECT release_id, count(*)::int AS n FROM build
    WHERE release_id = ANY($1::uuid[]) GROUP BY release_id`,
);

/** Every column of `build`, by the entity's property names (a test checks them). */
export const BUILD_COLUMNS = [
  'id',
  'organizationId',
  'projectId',
  'releaseId',
  'name',
  'buildNumber',
  'commitSha',
  'branch',
  'repoUrl',
  'status',
  'source',
  'queuePosition',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Build>;

/** Build $1 if it is organization $2's, or any organization's when $2 is null (the operator). */
const FIND = `SELECT ${selectColumns(BUILD_COLUMNS)} FROM build
  WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`;
const FIND_BUILD = sql('builds.find', FIND);
const LOCK_BUILD = sql('builds.lock', `${FIND} FOR UPDATE`);

const NEWEST_FIRST = 'created_at DESC, id DESC';

/** The list's filters, in this order, each left out when its value is null. */
const LIST_FILTERS = [
  'status',
  'branch',
  'commitSha',
  'buildNumber',
  'releaseId',
  'projectId',
  'source',
] as const;

/**
 * Organization $1's builds that match the filters ($2 … $8 in `LIST_FILTERS` order, then
 * created strictly after $9 and before $10), newest first.
 */
const LIST = pagedSql('builds.list', {
  select: selectColumns(BUILD_COLUMNS),
  from: 'build',
  where: `organization_id = $1
          AND ($2::build_status IS NULL OR status = $2)
          AND ($3::varchar IS NULL OR branch = $3)
          AND ($4::varchar IS NULL OR commit_sha = $4)
          AND ($5::varchar IS NULL OR build_number = $5)
          AND ($6::uuid IS NULL OR release_id = $6)
          AND ($7::uuid IS NULL OR project_id = $7)
          AND ($8::source IS NULL OR source = $8)
          AND ($9::timestamptz IS NULL OR created_at > $9)
          AND ($10::timestamptz IS NULL OR created_at < $10)`,
  orderBy: NEWEST_FIRST,
});

/** All of organization $1's builds, unfiltered: its total is the counter the database keeps. */
const LIST_ALL = pagedSql('builds.listAll', {
  select: selectColumns(BUILD_COLUMNS),
  from: 'build',
  where: 'organization_id = $1',
  orderBy: NEWEST_FIRST,
  total: 'SELECT total FROM build_count WHERE organization_id = $1',
});

/** Organization $1's planned builds, in queue order. */
const QUEUE = pagedSql('builds.queue', {
  select: selectColumns(BUILD_COLUMNS),
  from: 'build',
  where: 'organization_id = $1 AND queue_position IS NOT NULL',
  orderBy: 'queue_position ASC',
});

export type BuildFilters = Partial<Record<(typeof LIST_FILTERS)[number], string>>;

/** How builds are read and queued: the SQL of the `build` table. */
@Injectable()
export class BuildsRepository {
  constructor(private readonly transactions: Transactions) {}

  private get manager() {
    return this.transactions.manager;
  }

  private builds(rows: Build[]): Build[] {
    return rows.map((row) => this.manager.create(Build, row));
  }

  /** The build if the caller may see it: the organization's, or any for the operator. */
  async find(caller: Caller, id: string, lock = false): Promise<Build | null> {
    const [row]: Build[] = await this.manager.query(lock ? LOCK_BUILD : FIND_BUILD, [
      id,
      organizationOf(caller),
    ]);
    return row ? this.manager.create(Build, row) : null;
  }

  /** A page of the organization's builds, newest first, and the number of all that match. */
  async page(
    organizationId: string,
    filters: BuildFilters,
    query: CreatedBetweenQuery,
  ): Promise<[Build[], number]> {
    const values = LIST_FILTERS.map((key) => filters[key] ?? null);
    const times = [query.created_after ?? null, query.created_before ?? null];
    const filtered = [...values, ...times].some((value) => value !== null);
    const [rows, total] = filtered
      ? await fetchPage<Build>(this.manager, LIST, [organizationId, ...values, ...times], query)
      : await fetchPage<Build>(this.manager, LIST_ALL, [organizationId], query);
    return [this.builds(rows), total];
  }

  /** A page of the organization's planned builds in queue order. */
  async queuePage(organizationId: string, query: PaginationQuery): Promise<[Build[], number]> {
    const [rows, total] = await fetchPage<Build>(this.manager, QUEUE, [organizationId], query);
    return [this.builds(rows), total];
  }

  /** The position after the organization's last queued build (1 for an empty queue). */
  async nextQueuePosition(organizationId: string): Promise<number> {
    const [row]: Array<{ next: number }> = await this.transactions.manager.query(
      NEXT_QUEUE_POSITION,
      [organizationId],
    );
    return row.next;
  }

  /** The build's queue position: null out of the queue, undefined if no such build. */
  async queuePositionOf(organizationId: string, id: string): Promise<number | null | undefined> {
    const [row]: Array<{ queue_position: number | null }> = await this.transactions.manager.query(
      QUEUE_POSITION,
      [id, organizationId],
    );
    return row?.queue_position;
  }

  /** Takes the build out of the queue and moves the ones behind `position` up by one. */
  async leaveQueue(organizationId: string, id: string, position: number): Promise<void> {
    const manager = this.transactions.manager;
    await manager.query(LEAVE_QUEUE, [id]);
    await manager.query(CLOSE_QUEUE_GAP, [organizationId, position]);
  }

  /** How many builds each of the releases has (a release without any is left out). */
  countInReleases(releaseIds: string[]): Promise<Array<{ release_id: string; n: number }>> {
    return this.transactions.manager.query(COUNT_IN_RELEASES, [releaseIds]);
  }

  /** Inserts a build, in the caller's transaction. */
  insert(fields: Partial<Build>): Promise<Build> {
    const manager = this.transactions.manager;
    return manager.save(manager.create(Build, fields));
  }

  /** Writes the changed columns of a build read before, in the caller's transaction. */
  save(build: Build): Promise<Build> {
    return this.transactions.manager.save(build);
  }
}
