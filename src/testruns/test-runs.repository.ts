import { Injectable } from '@nestjs/common';
import { type Caller, tenantOf } from '../common/caller.js';
import { RUN_CHANGES_CHANNEL } from './live/run-changes.js';
import {
  fetchPage,
  type PaginationQuery,
  whereFiltersNewestFirst,
  type CreatedBetweenQuery,
} from '../common/pagination/pagination.js';
import { preparedSql, sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { TestRun, type TestRunStatus } from './entities/test-run.entity.js';

/**
 * Every column of `test_run`, by the entity's property names, in the entity's order (a test
 * checks them against the entity's metadata): what a locked read returns.
 */
export const TEST_RUN_COLUMNS = [
  'id',
  'organizationId',
  'projectId',
  'buildId',
  'releaseId',
  'name',
  'position',
  'status',
  'source',
  'total',
  'passed',
  'failed',
  'blocked',
  'skipped',
  'retest',
  'untested',
  'flaky',
  'submittedAt',
  'completedAt',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof TestRun>;

const snake = (property: string) => property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const SELECT_RUN = `SELECT ${TEST_RUN_COLUMNS.map((p) => `"${snake(p)}" AS "${p}"`).join(', ')} FROM test_run WHERE id = $1 AND organization_id = $2`;

/**
 * The statements that lock a run and read it (every result batch runs one), prepared once per
 * connection: TypeORM would build the query and PostgreSQL plan it on every call.
 */
const LOCK: Record<RunLockMode, string> = {
  exclusive: preparedSql('testRuns.lockExclusive', `${SELECT_RUN} FOR UPDATE`),
  shared: preparedSql('testRuns.lockShared', `${SELECT_RUN} FOR KEY SHARE`),
};

/** The NOTIFY of `RUN_CHANGES_CHANNEL` for run $1 of project $2, for changes that send no other statement. */
const NOTIFY_RUN_CHANGED = preparedSql(
  'testRuns.notifyChanged',
  `SELECT pg_notify('${RUN_CHANGES_CHANNEL}', $1::text || ' ' || $2::text)`,
);

const STATUS_COUNTS_IN_RELEASES = sql(
  'testRuns.statusCountsInReleases',
  `SELECT release_id, status, count(*)::int AS n FROM test_run
    WHERE release_id = ANY($1::uuid[]) GROUP BY release_id, status`,
);

/** The list's filters, each a condition on `run`, applied in this order. */
const LIST_FILTERS = {
  status: sql('testRuns.list.whereStatus', 'run.status = :status'),
  projectId: sql('testRuns.list.whereProject', 'run.projectId = :projectId'),
  buildId: sql('testRuns.list.whereBuild', 'run.buildId = :buildId'),
  releaseId: sql('testRuns.list.whereRelease', 'run.releaseId = :releaseId'),
};

export type RunLockMode = 'exclusive' | 'shared';
export type TestRunFilters = Partial<Record<keyof typeof LIST_FILTERS, string>>;

/** How test runs are read: the SQL of the `test_run` table. */
@Injectable()
export class TestRunsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** The run if the caller may see it: the organization's, or any for the operator. */
  find(caller: Caller, id: string): Promise<TestRun | null> {
    return this.transactions.manager.findOneBy(TestRun, { id, ...tenantOf(caller) });
  }

  /** Tells the run's (and its project's) live viewers, once this transaction commits, that it changed. */
  async notifyChanged(run: Pick<TestRun, 'id' | 'projectId'>): Promise<void> {
    await this.transactions.manager.query(NOTIFY_RUN_CHANGED, [run.id, run.projectId]);
  }

  /** The run, row-locked in `mode` for the rest of the transaction; null if not the org's. */
  async lock(organizationId: string, id: string, mode: RunLockMode): Promise<TestRun | null> {
    const manager = this.transactions.manager;
    const [row]: Array<Record<string, unknown>> = await manager.query(LOCK[mode], [
      id,
      organizationId,
    ]);
    return row ? manager.create(TestRun, row as Partial<TestRun>) : null;
  }

  /** A page of the organization's runs, newest first, and the number of all that match. */
  page(
    organizationId: string,
    filters: TestRunFilters,
    query: CreatedBetweenQuery & PaginationQuery,
  ): Promise<[TestRun[], number]> {
    const qb = this.transactions.manager
      .createQueryBuilder(TestRun, 'run')
      .where('run.organizationId = :organizationId', { organizationId });
    whereFiltersNewestFirst(qb, 'run', LIST_FILTERS, filters, query);
    return fetchPage(qb, query);
  }

  /** The releases' runs by release and status (statuses without runs are left out). */
  statusCountsInReleases(
    releaseIds: string[],
  ): Promise<Array<{ release_id: string; status: TestRunStatus; n: number }>> {
    return this.transactions.manager.query(STATUS_COUNTS_IN_RELEASES, [releaseIds]);
  }
}
