import { Injectable } from '@nestjs/common';
import {
  type CreatedBetweenQuery,
  fetchPage,
  PaginationQuery,
  whereFiltersNewestFirst,
} from '../common/pagination/pagination.js';
import { type Caller, tenantOf } from '../common/caller.js';
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

/** The list's filters, each a condition on `build`, applied in this order. */
const LIST_FILTERS = {
  status: sql('builds.list.whereStatus', 'build.status = :status'),
  branch: sql('builds.list.whereBranch', 'build.branch = :branch'),
  commitSha: sql('builds.list.whereCommitSha', 'build.commitSha = :commitSha'),
  buildNumber: sql('builds.list.whereBuildNumber', 'build.buildNumber = :buildNumber'),
  releaseId: sql('builds.list.whereRelease', 'build.releaseId = :releaseId'),
  projectId: sql('builds.list.whereProject', 'build.projectId = :projectId'),
  source: sql('builds.list.whereSource', 'build.source = :source'),
};
/** All of the organization's builds, unfiltered: the counter the database keeps. */
const COUNT_ALL = sql(
  'builds.list.countAll',
  'SELECT total FROM build_count WHERE organization_id = :organizationId',
);

export type BuildFilters = Partial<Record<keyof typeof LIST_FILTERS, string>>;

/** How builds are read and queued: the SQL of the `build` table. */
@Injectable()
export class BuildsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** The build if the caller may see it: the organization's, or any for the operator. */
  find(caller: Caller, id: string, lock = false): Promise<Build | null> {
    return this.transactions.manager.findOne(Build, {
      where: { id, ...tenantOf(caller) },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** A page of the organization's builds, newest first, and the number of all that match. */
  page(
    organizationId: string,
    filters: BuildFilters,
    query: CreatedBetweenQuery,
  ): Promise<[Build[], number]> {
    const qb = this.transactions.manager
      .createQueryBuilder(Build, 'build')
      .where('build.organizationId = :organizationId', { organizationId });
    const filtered = whereFiltersNewestFirst(qb, 'build', LIST_FILTERS, filters, query);
    return fetchPage(qb, query, filtered ? undefined : COUNT_ALL);
  }

  /** A page of the organization's planned builds in queue order. */
  queuePage(organizationId: string, query: PaginationQuery): Promise<[Build[], number]> {
    return fetchPage(
      this.transactions.manager
        .createQueryBuilder(Build, 'build')
        .where('build.organizationId = :organizationId', { organizationId })
        .andWhere('build.queuePosition IS NOT NULL')
        .orderBy('build.queuePosition', 'ASC'),
      query,
    );
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
