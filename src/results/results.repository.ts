import { Injectable } from '@nestjs/common';
import { RUN_CHANGES_CHANNEL } from '../testruns/live/run-changes.js';
import { type Caller, organizationOf } from '../common/caller.js';
import type { PaginationQuery } from '../common/pagination/pagination.js';
import {
  arrayLiteral,
  copyInto,
  copyLines,
  copyText,
  copyTextArray,
  COPY_NULL,
} from '../database/copy.js';
import { likePattern, titleOrAutomationIdContains } from '../projects/projects.repository.js';
import { selectColumns } from '../database/entity-columns.js';
import { fetchPage, pagedSql, type PagedStatements } from '../database/paged-sql.js';
import { preparedSql, sql } from '../database/sql.js';
import { RunPartitionLookup } from '../database/run-partition-lookup.js';
import { Transactions } from '../database/transactions.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { RESULT_STATUSES, type ResultStatus } from './entities/result-status.js';
import { TestResult } from './entities/test-result.entity.js';
import { COUNT_COLUMNS, type Counts } from './run-counts.js';
import type { StoredResult } from './stored-result.js';

/** What the stored results of a batch share: the transaction's time, at the column's precision. */
const TRANSACTION_TIME = sql('results.transactionTime', 'SELECT now()::timestamptz(3) AS now');

/** Where a batch is undone to when a case id this process remembered names no case any more. */
const SAVEPOINT_BATCH = sql('results.savepointBatch', 'SAVEPOINT write_batch');
const UNDO_BATCH = sql('results.undoBatch', 'ROLLBACK TO SAVEPOINT write_batch');

const COPY_RESULTS = sql(
  'results.copyResults',
  `COPY test_result (id, organization_id, test_run_id, test_case_id, configuration, status, duration_ms, message, defects, retries, flaky, executed_at, failure_type, stack_trace, signature, attempts)
     FROM STDIN`,
);

/**
 * The change to a run's counts from the rows an upsert of current results returns (`created`,
 * `status`, `flaky`, `replaced_status`, `replaced_flaky`): a new row adds its status, a
 * replaced one moves a count from the old status to the new one.
 */
const COUNT_CHANGES = [
  'count(*) FILTER (WHERE created)::int AS total',
  ...RESULT_STATUSES.map(
    (status) =>
      `(count(*) FILTER (WHERE status = '${status}') - count(*) FILTER (WHERE NOT created AND replaced_status = '${status}'))::int AS ${status}`,
  ),
  '(count(*) FILTER (WHERE flaky) - count(*) FILTER (WHERE NOT created AND replaced_flaky))::int AS flaky',
].join(',\n         ');

/**
 * Makes each slot's result its current one (one row per slot, in slot order) and returns the
 * change to the run's counts; $7 is when the batch's results were stored (they share their
 * transaction's time). Prepared once per connection: it runs for every batch, and its plan
 * does not depend on its parameters.
 */
const UPSERT_CURRENT = preparedSql(
  'results.upsertCurrent',
  `WITH changed AS (
         INSERT INTO test_run_case AS c (test_run_id, test_case_id, configuration, result_id, status, flaky, result_created_at)
         SELECT $1, x.test_case_id, x.configuration, x.id, x.status, x.flaky, $7
           FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::result_status[], $6::boolean[])
                WITH ORDINALITY AS x(test_case_id, configuration, id, status, flaky, n)
          ORDER BY x.n
         ON CONFLICT (test_run_id, test_case_id, configuration) DO UPDATE
            SET result_id = EXCLUDED.result_id, status = EXCLUDED.status, flaky = EXCLUDED.flaky,
                result_created_at = EXCLUDED.result_created_at,
                replaced_status = c.status, replaced_flaky = c.flaky
         -- A new row replaced nothing; an updated one keeps its old status, never null (a
         -- partitioned table has no xmax to tell them apart).
         RETURNING c.status, c.flaky, c.replaced_status IS NULL AS created, c.replaced_status, c.replaced_flaky
       )
       SELECT ${COUNT_CHANGES} FROM changed`,
);

const COPY_CURRENT = sql(
  'results.copyCurrent',
  'COPY test_run_case (test_run_id, test_case_id, configuration, result_id, status, flaky, result_created_at) FROM STDIN',
);

/** The parameter of `ADD_RUN_COUNTS` after the counts: the batch's configurations. */
const BATCH_CONFIGURATIONS = `$${COUNT_COLUMNS.length + 2}::varchar[]`;

/**
 * How many configurations a run's row keeps for its list (the first by name): a key may give
 * every result a configuration of its own, and the row is read with every run.
 */
export const RUN_CONFIGURATIONS_KEPT = 50;

/**
 * Adds a change ($2 … in `COUNT_COLUMNS` order) to run $1's counts and the batch's
 * configurations (the last parameter, sorted, none for the slots without one) to the run's
 * (the first `RUN_CONFIGURATIONS_KEPT` by name), left as they are when it adds none (most
 * batches), and tells the run's live viewers once the batch commits (`RUN_CHANGES_CHANNEL`), in
 * the same round trip.
 */
const ADD_RUN_COUNTS = preparedSql(
  'results.addRunCounts',
  `UPDATE test_run SET ${COUNT_COLUMNS.map((c, i) => `${c} = ${c} + $${i + 2}`).join(', ')},
          configurations = CASE WHEN ${BATCH_CONFIGURATIONS} <@ configurations THEN configurations
            ELSE ARRAY(SELECT DISTINCT c FROM unnest(configurations || ${BATCH_CONFIGURATIONS}) c
                        ORDER BY c LIMIT ${RUN_CONFIGURATIONS_KEPT}) END,
          updated_at = now()
    WHERE id = $1
    RETURNING pg_notify('${RUN_CHANGES_CHANNEL}', $1::text || ' ' || project_id::text)`,
);

/** Every column of `test_result`, by the entity's property names (a test checks them). */
export const TEST_RESULT_COLUMNS = [
  'id',
  'createdAt',
  'organizationId',
  'testRunId',
  'testCaseId',
  'status',
  'durationMs',
  'message',
  'defects',
  'failureType',
  'stackTrace',
  'signature',
  'retries',
  'flaky',
  'executedAt',
  'configuration',
  'attempts',
  'seq',
] as const satisfies ReadonlyArray<keyof TestResult>;

const SELECT_RESULT = selectColumns(TEST_RESULT_COLUMNS, 'result');
const NEWEST_FIRST = 'result.created_at DESC, result.id DESC';
/**
 * Results by their whole key (id, run) from the slots of `rows`, a materialized CTE that
 * carries the run's id: each found with one probe of its month's key. Naming the run as the
 * constant `$1` instead would let the planner, with no statistics of a new run yet, read the
 * whole run once per slot by the run's index.
 */
const BY_KEY = (rows: string) =>
  `${rows}.result_id = result.id AND ${rows}.test_run_id = result.test_run_id`;

/** What the console lists first: the statuses that fail a run (CONTRACT §12's failures). */
const FAILING = `IN ('failed', 'blocked')`;

/** Result $1 if it is organization $2's, or any organization's when $2 is null (the operator). */
const FIND_RESULT = sql(
  'results.find',
  `SELECT ${SELECT_RESULT} FROM test_result result
    WHERE result.id = $1 AND ($2::uuid IS NULL OR result.organization_id = $2)`,
);

/**
 * The run's current results ($1) with status $2, of case $3 and in configuration $4 ('': those
 * without one), each left out when null.
 */
const CURRENT_OF_RUN = `c.test_run_id = $1
            AND ($2::result_status IS NULL OR c.status = $2)
            AND ($3::uuid IS NULL OR c.test_case_id = $3)
            AND ($4::text IS NULL OR c.configuration = $4)`;

/**
 * How many of run $1's current results `CURRENT` lists: filtered by status ($2) alone, or not
 * at all, the run's own counts say it (one row, kept exact with every batch, CONTRACT §6);
 * filtered by case or configuration, they are counted in `test_run_case` alone.
 */
const CURRENT_TOTAL = `SELECT CASE WHEN $3::uuid IS NULL AND $4::text IS NULL
            THEN (SELECT CASE $2::result_status ${RESULT_STATUSES.map((s) => `WHEN '${s}' THEN run.${s}`).join(' ')}
                         ELSE run.total END
                    FROM test_run run WHERE run.id = $1)
            ELSE (SELECT count(*) FROM test_run_case c WHERE ${CURRENT_OF_RUN}) END`;

/**
 * Every result of run $1 with status $2, of case $3, in configuration $4 and whose case's title
 * or automation id contains pattern $5 (from `likePattern`), each left out when null, each
 * slot's current one or not. The run's own cases are few beside the project's: each is checked
 * by its key.
 */
const HISTORY_PARTS = {
  select: SELECT_RESULT,
  from: 'test_result result',
  where: `result.test_run_id = $1
          AND ($2::result_status IS NULL OR result.status = $2)
          AND ($3::uuid IS NULL OR result.test_case_id = $3)
          AND ($4::text IS NULL OR result.configuration = $4)
          AND ($5::text IS NULL OR EXISTS (
                SELECT 1 FROM test_case tc
                 WHERE tc.id = result.test_case_id AND ${titleOrAutomationIdContains(5)}))`,
};
const HISTORY = pagedSql('results.list.history', { ...HISTORY_PARTS, orderBy: NEWEST_FIRST });

/** `HISTORY`, failed and blocked results first. */
const HISTORY_FAILURES_FIRST = pagedSql('results.list.historyFailuresFirst', {
  ...HISTORY_PARTS,
  orderBy: `result.status ${FAILING} DESC, ${NEWEST_FIRST}`,
});

/**
 * The current results of run $1 (with status $2, of case $3, in configuration $4: each left
 * out when null). Whether a result is its slot's current one is a subquery, run for each
 * result read, that finds the slot's row of `test_run_case` by its whole key (that row keeps
 * the current result's status). Written as a join, the planner may read that row by the run
 * alone (see `ResultsRepository.page`). As a yes-or-no subquery it stays opaque to the planner,
 * which then guesses half the run's results pass it, not one, and reads the run newest first
 * by its index until the page is full instead of sorting it all. The total is
 * `CURRENT_TOTAL`.
 */
export const CURRENT = pagedSql('results.list.current', {
  select: SELECT_RESULT,
  from: 'test_result result',
  where: `result.test_run_id = $1
          AND (SELECT c.result_id = result.id AND ($2::result_status IS NULL OR c.status = $2)
                 FROM test_run_case c
                WHERE c.configuration = result.configuration
                  AND c.test_run_id = result.test_run_id AND c.test_case_id = result.test_case_id)
          AND ($3::uuid IS NULL OR result.test_case_id = $3)
          AND ($4::text IS NULL OR result.configuration = $4)`,
  orderBy: NEWEST_FIRST,
  total: CURRENT_TOTAL,
});

/**
 * The current results of run $1 (as `CURRENT` filters them) whose case's title or automation
 * id contains pattern $5: each of the run's cases checked once by its key, for the page and its
 * total alike.
 */
const SEARCHED = pagedSql('results.list.searched', {
  with: `WITH searched AS MATERIALIZED (
           SELECT c.result_id, c.test_run_id FROM test_run_case c
             JOIN test_case tc ON tc.id = c.test_case_id
            WHERE ${CURRENT_OF_RUN}
              AND ${titleOrAutomationIdContains(5)}
         )`,
  select: SELECT_RESULT,
  from: `test_result result
         JOIN searched ON ${BY_KEY('searched')}`,
  orderBy: NEWEST_FIRST,
  total: 'SELECT count(*) FROM searched',
});

/**
 * The current results of run $1 (as `CURRENT` filters them) whose case's title or automation
 * id contains pattern $5, failed and blocked ones first, each part newest first: the run's
 * slots are read from `test_run_case` alone (which keeps each current result's status) and
 * their results joined by the results' key, as `SEARCHED` does. A search reads the whole run
 * and sorts it, as `SEARCHED` does.
 */
const SEARCHED_FAILURES_FIRST = pagedSql('results.list.searchedFailuresFirst', {
  with: `WITH slots AS MATERIALIZED (
           SELECT c.result_id, c.test_run_id, c.status ${FAILING} AS failing FROM test_run_case c
             JOIN test_case tc ON tc.id = c.test_case_id
            WHERE ${CURRENT_OF_RUN}
              AND ${titleOrAutomationIdContains(5)}
         )`,
  select: SELECT_RESULT,
  from: `test_result result JOIN slots ON ${BY_KEY('slots')}`,
  orderBy: `slots.failing DESC, ${NEWEST_FIRST}`,
  total: 'SELECT count(*) FROM slots',
});

/**
 * The current results of run $1 (as `CURRENT` filters them), failed and blocked ones first,
 * each part newest first, reading no further than the page ($5 is its end: offset + limit).
 * The failing part is read from `test_run_case` by status (a run's failures are few beside its
 * passes), its results joined by their key and sorted; the rest is read as `CURRENT` reads a
 * run, newest first by the run's index, each result's slot looked up by its whole key, and
 * stops once the page is full. So the console's first page of a 20,000-result run costs its
 * failures and a page, not the run. The total is `CURRENT_TOTAL`.
 */
export const FAILURES_FIRST = pagedSql('results.list.failuresFirst', {
  with: `WITH failing AS MATERIALIZED (
           SELECT c.result_id, c.test_run_id FROM test_run_case c
            WHERE ${CURRENT_OF_RUN} AND c.status ${FAILING}
         )`,
  select: SELECT_RESULT,
  from: `((SELECT result.*, 0 AS part FROM test_result result
             JOIN failing ON ${BY_KEY('failing')}
            ORDER BY ${NEWEST_FIRST} LIMIT $5)
          UNION ALL
          (SELECT result.*, 1 AS part FROM test_result result
            WHERE result.test_run_id = $1
              AND (SELECT c.result_id = result.id AND c.status NOT ${FAILING}
                          AND ($2::result_status IS NULL OR c.status = $2)
                     FROM test_run_case c
                    WHERE c.configuration = result.configuration
                      AND c.test_run_id = result.test_run_id AND c.test_case_id = result.test_case_id)
              AND ($3::uuid IS NULL OR result.test_case_id = $3)
              AND ($4::text IS NULL OR result.configuration = $4)
            ORDER BY ${NEWEST_FIRST} LIMIT $5)) result`,
  orderBy: `result.part, ${NEWEST_FIRST}`,
  total: CURRENT_TOTAL,
});

/**
 * From this offset on, a run's current results are listed by `CURRENT_DEEP` or
 * `FAILURES_FIRST_DEEP`. `CURRENT` and `FAILURES_FIRST` read the results they pass over (about
 * 5 µs each here: 92 ms at offset 18,000 of a 20,000-result run), the deep ones the run's slots
 * (about 10 ms for 20,000, at any offset); at 2,000 both took 6–10 ms.
 */
export const DEEP_OFFSET = 2000;

/**
 * A page of run $1's current results (as `CURRENT` filters them) at a deep offset ($6; $5 is
 * the limit): the run's slots, which keep each current result's status, time and id
 * (`result_created_at`, `result_id`), sorted as the results are (failed and blocked ones first
 * with `failuresFirst`) and cut to the page, then only the page's results read by their key.
 * Its cost follows the run's size, not the offset. The total is `CURRENT_TOTAL`.
 */
function deepPage(name: string, failuresFirst: boolean): PagedStatements {
  const failingFirst = failuresFirst ? `c.status ${FAILING} DESC, ` : '';
  return {
    page: sql(
      name,
      `WITH page AS MATERIALIZED (
         SELECT c.result_id, c.test_run_id, c.status ${FAILING} AS failing FROM test_run_case c
          WHERE ${CURRENT_OF_RUN}
          ORDER BY ${failingFirst}c.result_created_at DESC, c.result_id DESC
          LIMIT $5 OFFSET $6
       )
       SELECT ${SELECT_RESULT},
              coalesce((${CURRENT_TOTAL}), 0)::int AS pagination_total
         FROM test_result result JOIN page ON ${BY_KEY('page')}
        ORDER BY ${failuresFirst ? 'page.failing DESC, ' : ''}${NEWEST_FIRST}`,
    ),
    total: CURRENT.total,
  };
}

/** `CURRENT`'s page at a deep offset. */
export const CURRENT_DEEP = deepPage('results.list.currentDeep', false);

/** `FAILURES_FIRST`'s page at a deep offset. */
export const FAILURES_FIRST_DEEP = deepPage('results.list.failuresFirstDeep', true);

/**
 * The configurations of the run's current results ('' for none) and how many each has: the
 * run's slots read once from their key's first column, as the counts are.
 */
const RUN_CONFIGURATIONS = sql(
  'results.runConfigurations',
  `SELECT configuration, count(*)::int AS results FROM test_run_case
    WHERE test_run_id = $1
    GROUP BY configuration ORDER BY configuration = '', configuration`,
);

/** Which of a run's results a page lists. */
export interface ResultFilter {
  status?: ResultStatus;
  testCaseId?: string;
  /** Text the case's title or automation id contains (case-insensitive). */
  search?: string;
  /** Results in this configuration only ('': those without one). */
  configuration?: string;
  /** Every result, not only each case's current one. */
  includeHistory: boolean;
  /** Failed and blocked results before the others (each part newest first). */
  failuresFirst?: boolean;
}

/**
 * The SQL of results (`test_result`), each case's current result in a run (`test_run_case`)
 * and a run's counts, on the current transaction.
 */
@Injectable()
export class ResultsRepository {
  /** Where a run's new rows are copied: its month's partition. */
  private readonly partitions: RunPartitionLookup;

  constructor(private readonly transactions: Transactions) {
    this.partitions = new RunPartitionLookup(transactions);
  }

  async transactionTime(): Promise<Date> {
    const [{ now }]: Array<{ now: Date }> = await this.transactions.manager.query(TRANSACTION_TIME);
    return now;
  }

  async savepointBatch(): Promise<void> {
    await this.transactions.manager.query(SAVEPOINT_BATCH);
  }

  async undoBatch(): Promise<void> {
    await this.transactions.manager.query(UNDO_BATCH);
  }

  /** Loads a round's results with COPY, into the run's month's partition. */
  async copyResults(run: TestRun, results: StoredResult[]): Promise<void> {
    const into = await this.partitions.of('test_result', run.id);
    return copyInto(this.transactions, into(COPY_RESULTS), resultLines(run, results));
  }

  /**
   * Makes `current` (one result per case, in case order) the cases' current results, and
   * returns the change to the run's counts. The upsert runs atomically under the rows' locks
   * (concurrent batches into one run share cases), so the change it returns is exact.
   */
  async upsertCurrent(run: TestRun, current: StoredResult[]): Promise<Counts> {
    const [change]: Counts[] = await this.transactions.manager.query(UPSERT_CURRENT, [
      run.id,
      arrayLiteral(current.map((r) => r.test_case_id)),
      arrayLiteral(current.map((r) => r.configuration ?? '')),
      arrayLiteral(current.map((r) => r.id)),
      arrayLiteral(current.map((r) => r.status)),
      arrayLiteral(current.map((r) => (r.flaky ? 't' : 'f'))),
      batchTime(current),
    ]);
    return change;
  }

  /** Loads `current` with COPY: for a run opened in this transaction, whose cases have none. */
  async copyCurrent(run: TestRun, current: StoredResult[]): Promise<void> {
    const storedAt = batchTime(current) ?? COPY_NULL;
    const into = await this.partitions.of('test_run_case', run.id);
    return copyInto(
      this.transactions,
      into(COPY_CURRENT),
      copyLines(
        current,
        (r) =>
          `${run.id}\t${r.test_case_id}\t${r.configuration === null ? '' : copyText(r.configuration)}\t${r.id}\t${r.status}\t${r.flaky ? 't' : 'f'}\t${storedAt}\n`,
      ),
    );
  }

  /**
   * Adds `change` to the run's counts and `configurations` (the batch's) to the run's: one
   * atomic update.
   */
  async addRunCounts(runId: string, change: Counts, configurations: string[]): Promise<void> {
    await this.transactions.manager.query(ADD_RUN_COUNTS, [
      runId,
      ...COUNT_COLUMNS.map((c) => change[c]),
      arrayLiteral(configurations),
    ]);
  }

  /**
   * A page of run `runId`'s results, newest first (failed and blocked ones first with
   * `failuresFirst`), and how many match. A run is read the moment
   * it lands, before PostgreSQL has statistics for it (autoanalyze may take hours, or never
   * run): the planner then takes the run for a row or two, and any join of two relations that
   * are both narrowed to the run may be run as a loop that reads the whole run on every turn
   * (20,000 × 20,000 rows for a run of 20,000 cases). So no statement here joins two of the
   * run's relations on another key: a result's current row is looked up by its whole key
   * (`IS_CURRENT_RESULT`), current results are counted in `test_run_case` alone, and a search
   * reads the run's cases from `test_run_case` and joins their results by the results' key.
   */
  async page(
    runId: string,
    filter: ResultFilter,
    pagination: PaginationQuery,
  ): Promise<[TestResult[], number]> {
    const manager = this.transactions.manager;
    const search = filter.search === undefined ? null : likePattern(filter.search);
    const list = listOf(filter, search !== null, pagination.offset);
    const parameters = [
      runId,
      filter.status ?? null,
      filter.testCaseId ?? null,
      filter.configuration ?? null,
    ];
    const [rows, total] = await fetchPage<TestResult>(
      manager,
      list,
      list === CURRENT || list === CURRENT_DEEP || list === FAILURES_FIRST_DEEP
        ? parameters
        : [...parameters, list === FAILURES_FIRST ? pagination.offset + pagination.limit : search],
      pagination,
    );
    return [rows.map((row) => manager.create(TestResult, row)), total];
  }

  /** The result if the caller may see it: the organization's, or any for the operator. */
  async find(caller: Caller, id: string): Promise<TestResult | null> {
    const manager = this.transactions.manager;
    const [row]: TestResult[] = await manager.query(FIND_RESULT, [id, organizationOf(caller)]);
    return row ? manager.create(TestResult, row) : null;
  }

  /** The configurations the run's current results are in ('' for none), by name. */
  configurations(runId: string): Promise<Array<{ configuration: string; results: number }>> {
    return this.transactions.manager.query(RUN_CONFIGURATIONS, [runId]);
  }
}

/**
 * When a round's results were stored, as text: they share their transaction's time (the
 * writer gives each the same `created_at`), so one value serves every row.
 */
function batchTime(results: StoredResult[]): string | null {
  return results.length === 0 ? null : results[0].created_at.toISOString();
}

/** The statements that list the results `filter` asks for. */
function listOf(filter: ResultFilter, searched: boolean, offset: number): PagedStatements {
  if (filter.includeHistory) return filter.failuresFirst ? HISTORY_FAILURES_FIRST : HISTORY;
  if (searched) return filter.failuresFirst ? SEARCHED_FAILURES_FIRST : SEARCHED;
  if (filter.failuresFirst) return offset >= DEEP_OFFSET ? FAILURES_FIRST_DEEP : FAILURES_FIRST;
  return offset >= DEEP_OFFSET ? CURRENT_DEEP : CURRENT;
}

/** The round's rows of test_result in COPY text format, one string per line. */
function resultLines(run: TestRun, results: StoredResult[]): Generator<string> {
  return copyLines(
    results,
    (r) =>
      `${r.id}\t${run.organizationId}\t${run.id}\t${r.test_case_id}\t${r.configuration === null ? '' : copyText(r.configuration)}\t${r.status}\t${
        r.duration_ms ?? COPY_NULL
      }\t${copyText(r.message)}\t${copyTextArray(r.defects)}\t${r.retries}\t${r.flaky ? 't' : 'f'}\t${
        r.executed_at ? r.executed_at.toISOString() : COPY_NULL
      }\t${copyText(r.failure_type)}\t${copyText(r.stack_trace)}\t${r.signature ?? COPY_NULL}\t${
        r.attempts.length === 0 ? COPY_NULL : copyText(JSON.stringify(r.attempts))
      }\n`,
  );
}
