import { Injectable } from '@nestjs/common';
import { type Caller, organizationCaller, organizationOf } from '../common/caller.js';
import { RUN_CHANGES_CHANNEL } from './live/run-changes.js';
import type { CreatedBetweenQuery, PaginationQuery } from '../common/pagination/pagination.js';
import { lockForTransaction } from '../database/advisory-locks.js';
import { selectColumns } from '../database/entity-columns.js';
import { fetchPage, pagedSql } from '../database/paged-sql.js';
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
  'gatePassed',
  'gateEvaluatedAt',
  'configurations',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof TestRun>;

const SELECT_RUN = `SELECT ${selectColumns(TEST_RUN_COLUMNS)} FROM test_run WHERE id = $1 AND organization_id = $2`;

/** Run $1 if it is organization $2's, or any organization's when $2 is null (the operator). */
const FIND_RUN = sql(
  'testRuns.find',
  `SELECT ${selectColumns(TEST_RUN_COLUMNS)} FROM test_run
    WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)`,
);

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

/**
 * Moving run $1 of organization $2 to each status, stamping when ($3, the move's time): a
 * reopened run is not completed any more, so it loses its completion time (the next completion
 * stamps it again); it was submitted, so it keeps that time until a later submission. Its kept
 * gate verdict stays until the next completion renews it. Only these columns: the counts
 * belong to the result batches.
 */
const MOVE: Record<TestRunStatus, string> = {
  in_progress: sql(
    'testRuns.reopen',
    `UPDATE test_run SET status = 'in_progress', completed_at = NULL, updated_at = now()
      WHERE id = $1 AND organization_id = $2`,
  ),
  submitted: sql(
    'testRuns.submit',
    `UPDATE test_run SET status = 'submitted', submitted_at = $3, updated_at = now()
      WHERE id = $1 AND organization_id = $2`,
  ),
  completed: sql(
    'testRuns.complete',
    `UPDATE test_run SET status = 'completed', completed_at = $3, updated_at = now()
      WHERE id = $1 AND organization_id = $2`,
  ),
};

/** Gives run $1 of organization $2 its position $3 among its project's runs. */
const SET_POSITION = sql(
  'testRuns.setPosition',
  `UPDATE test_run SET position = $3, updated_at = now()
    WHERE id = $1 AND organization_id = $2`,
);

/** Keeps the gate's verdict $3, evaluated at $4, on run $1 of organization $2. */
const KEEP_GATE = sql(
  'testRuns.keepGate',
  `UPDATE test_run SET gate_passed = $3, gate_evaluated_at = $4, updated_at = now()
    WHERE id = $1 AND organization_id = $2`,
);

/**
 * The id of organization $1's newest run of project $2 and build $3 named $4: the run an ingest
 * naming that build and run name goes to (CONTRACT §6, the shards of one pipeline). By the
 * build's index, which leaves a handful of runs to filter.
 */
const FIND_NAMED_IN_BUILD = sql(
  'testRuns.findNamedInBuild',
  `SELECT id FROM test_run
    WHERE organization_id = $1 AND project_id = $2 AND build_id = $3 AND name = $4
    ORDER BY created_at DESC, id DESC
    LIMIT 1`,
);

/** The list's filters, in this order, each left out when its value is null. */
const LIST_FILTERS = ['status', 'projectId', 'buildId', 'releaseId'] as const;

/**
 * Organization $1's runs that match the filters ($2 … $5 in `LIST_FILTERS` order, then created
 * strictly after $6 and before $7), newest first.
 */
const LIST = pagedSql('testRuns.list', {
  select: selectColumns(TEST_RUN_COLUMNS),
  from: 'test_run',
  where: `organization_id = $1
          AND ($2::test_run_status IS NULL OR status = $2)
          AND ($3::uuid IS NULL OR project_id = $3)
          AND ($4::uuid IS NULL OR build_id = $4)
          AND ($5::uuid IS NULL OR release_id = $5)
          AND ($6::timestamptz IS NULL OR created_at > $6)
          AND ($7::timestamptz IS NULL OR created_at < $7)`,
  orderBy: 'created_at DESC, id DESC',
});

export type RunLockMode = 'exclusive' | 'shared';
export type TestRunFilters = Partial<Record<(typeof LIST_FILTERS)[number], string>>;

/** How test runs are read: the SQL of the `test_run` table. */
@Injectable()
export class TestRunsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** The run if the caller may see it: the organization's, or any for the operator. */
  async find(caller: Caller, id: string): Promise<TestRun | null> {
    const manager = this.transactions.manager;
    const [row]: TestRun[] = await manager.query(FIND_RUN, [id, organizationOf(caller)]);
    return row ? manager.create(TestRun, row) : null;
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

  /** The id of the newest run of the project and build with this name, if there is one. */
  async findNamedInBuild(
    organizationId: string,
    projectId: string,
    buildId: string,
    name: string,
  ): Promise<string | null> {
    const [row]: Array<{ id: string }> = await this.transactions.manager.query(
      FIND_NAMED_IN_BUILD,
      [organizationId, projectId, buildId, name],
    );
    return row?.id ?? null;
  }

  /**
   * Waits for, then holds until this transaction ends, the right to create the run of a project
   * and build with this name: two ingests that find no such run create it one after the other,
   * and the second then finds the first's.
   */
  async holdNameInBuild(
    organizationId: string,
    projectId: string,
    buildId: string,
    name: string,
  ): Promise<void> {
    await lockForTransaction(
      this.transactions,
      `run-name:${organizationId}:${projectId}:${buildId}:${name}`,
    );
  }

  /** A page of the organization's runs, newest first, and the number of all that match. */
  async page(
    organizationId: string,
    filters: TestRunFilters,
    query: CreatedBetweenQuery & PaginationQuery,
  ): Promise<[TestRun[], number]> {
    const manager = this.transactions.manager;
    const [rows, total] = await fetchPage<TestRun>(
      manager,
      LIST,
      [
        organizationId,
        ...LIST_FILTERS.map((key) => filters[key] ?? null),
        query.created_after ?? null,
        query.created_before ?? null,
      ],
      query,
    );
    return [rows.map((row) => manager.create(TestRun, row)), total];
  }

  /** The releases' runs by release and status (statuses without runs are left out). */
  statusCountsInReleases(
    releaseIds: string[],
  ): Promise<Array<{ release_id: string; status: TestRunStatus; n: number }>> {
    return this.transactions.manager.query(STATUS_COUNTS_IN_RELEASES, [releaseIds]);
  }

  /** Inserts a run; the defaults (counts, times) come back into it. In the caller's transaction. */
  async insert(fields: Partial<TestRun>): Promise<TestRun> {
    const manager = this.transactions.manager;
    const run = manager.create(TestRun, fields);
    // An insert, not a save: with its id chosen by the caller, a save would first look the run
    // up to decide between insert and update.
    await manager.insert(TestRun, run);
    return run;
  }

  /** Moves the run to `status`, stamped `at` (see `MOVE`), in the caller's transaction. */
  async move(
    run: Pick<TestRun, 'id' | 'organizationId'>,
    status: TestRunStatus,
    at: Date,
  ): Promise<void> {
    const parameters = status === 'in_progress' ? [] : [at];
    await this.transactions.manager.query(MOVE[status], [
      run.id,
      run.organizationId,
      ...parameters,
    ]);
  }

  /** Writes the run's position among its project's runs. */
  async setPosition(run: Pick<TestRun, 'id' | 'organizationId'>, position: number): Promise<void> {
    await this.transactions.manager.query(SET_POSITION, [run.id, run.organizationId, position]);
  }

  /** Keeps the gate's verdict of a completion on the run. */
  async keepGate(
    run: Pick<TestRun, 'id' | 'organizationId'>,
    passed: boolean,
    evaluatedAt: Date,
  ): Promise<void> {
    await this.transactions.manager.query(KEEP_GATE, [
      run.id,
      run.organizationId,
      passed,
      evaluatedAt,
    ]);
  }

  /** The run's row as this transaction sees it now (it must exist). */
  async reread(run: Pick<TestRun, 'id' | 'organizationId'>): Promise<TestRun> {
    const found = await this.find(organizationCaller(run.organizationId), run.id);
    if (!found) throw new Error(`test run ${run.id} is gone`);
    return found;
  }
}
