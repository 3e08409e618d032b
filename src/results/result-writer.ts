import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Injectable, Logger } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { uuid7 } from '../common/uuid7.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { prepared } from '../database/preparing-client.js';
import { Transactions } from '../database/transactions.js';
import { EventsService } from '../events/events.service.js';
import { toResultResponse } from './result-response.js';
import { CaseIdCache, type RememberedCases } from './case-id-cache.js';
import { orderByCase } from './case-order.js';
import { arrayLiteral, copyText, copyTextArray, COPY_NULL } from '../database/copy.js';
import { giveWay, storeWhilePreparing } from './pipelined.js';
import { RESULT_STATUSES, type ResultStatus } from './entities/result-status.js';
import type { ResultItem } from './result-items.js';

/** A stored result, as the API shows it. */
export interface StoredResult {
  id: string;
  test_run_id: string;
  test_case_id: string;
  status: ResultStatus;
  duration_ms: number | null;
  message: string | null;
  defects: string[];
  retries: number;
  flaky: boolean;
  executed_at: Date | null;
  created_at: Date;
}

export interface WriteOptions {
  /** The field a missing `test_case_id` of item `index` is reported as. */
  caseField?: (index: number) => string;
  newRun?: boolean;
  collect?: boolean;
}

/** A batch written, and the cases it created. */
interface Attempt {
  written: WrittenBatch;
  created: Array<[string, string]>;
}

/** A case a batch creates: its automation id (`name`), the id chosen for it, its title and section. */
interface NewCase {
  name: string;
  id: string;
  title: string;
  section: string | null;
}

/** The case of each item of a batch, and the creation of the new ones. */
interface ResolvedCases {
  /** New cases with the ids they are being created with. */
  caseIds: string[];
  /**
   * Settles once the new cases exist: those this batch created (automation id, case id)
   * and, when some existed after all, every item's case again.
   */
  creation: Promise<{ created: Array<[string, string]>; corrected: string[] | null }>;
}

export interface WrittenBatch {
  /** The stored results (one per item) in the order of the items, when the caller asked for them. */
  results: StoredResult[];
  createdTestCases: number;
}

/**
 * The most results (and cases) one statement handles. A larger batch (a JUnit report is
 * bounded only by its size) goes in several rounds of the same statements in the same
 * transaction, so memory stays bounded whatever the report's size.
 */
export const WRITE_CHUNK = 10_000;

type CountColumn = ResultStatus | 'flaky' | 'total';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const COPY_PIECE = 64 * 1024;
/** Results prepared between two turns of the event loop. */
const BUILD_SLICE = 1000;

/** `line` of each value, made only when asked for. */
function* lines<T>(values: T[], line: (value: T, index: number) => string): Generator<string> {
  for (let i = 0; i < values.length; i++) yield line(values[i], i);
}

/** The batch's rows of test_result in COPY text format, one string per line. */
function resultLines(run: TestRun, results: StoredResult[]): Generator<string> {
  return lines(
    results,
    (r) =>
      `${r.id}\t${run.organizationId}\t${run.id}\t${r.test_case_id}\t${r.status}\t${
        r.duration_ms ?? COPY_NULL
      }\t${copyText(r.message)}\t${copyTextArray(r.defects)}\t${r.retries}\t${r.flaky ? 't' : 'f'}\t${
        r.executed_at ? r.executed_at.toISOString() : COPY_NULL
      }\n`,
  );
}

/**
 * COPY data in pieces of about 64 KiB, each made when the connection is ready for it: the
 * server loads one piece while the next is formatted, and no large string is held.
 */
function* pieces(data: Iterable<string>): Generator<string> {
  let piece = '';
  for (const line of data) {
    piece += line;
    if (piece.length >= COPY_PIECE) {
      yield piece;
      piece = '';
    }
  }
  if (piece.length > 0) yield piece;
}

function* chunks<T>(values: T[]): Generator<T[]> {
  for (let i = 0; i < values.length; i += WRITE_CHUNK) yield values.slice(i, i + WRITE_CHUNK);
}

const COUNT_COLUMNS: readonly CountColumn[] = ['total', ...RESULT_STATUSES, 'flaky'];

/** A run's counts, or a change to them. */
type Counts = Record<CountColumn, number>;

/**
 * The change to a run's counts from the rows an upsert of current results returns: a new row
 * adds its status, a replaced one moves a count from the old status to the new one.
 */
const COUNT_CHANGES = [
  'count(*) FILTER (WHERE created)::int AS total',
  ...RESULT_STATUSES.map(
    (status) =>
      `(count(*) FILTER (WHERE status = '${status}') - count(*) FILTER (WHERE NOT created AND replaced_status = '${status}'))::int AS ${status}`,
  ),
  '(count(*) FILTER (WHERE flaky) - count(*) FILTER (WHERE NOT created AND replaced_flaky))::int AS flaky',
].join(', ');

function noCounts(): Counts {
  return Object.fromEntries(COUNT_COLUMNS.map((c) => [c, 0])) as Counts;
}

/**
 * Makes each case's result its current one (one row per case, in case order) and returns the
 * change to the run's counts. Prepared once per connection: it runs for every batch, and its
 * plan does not depend on its parameters.
 */
const UPSERT_CURRENT = prepared(
  `WITH changed AS (
         INSERT INTO test_run_case AS c (test_run_id, test_case_id, result_id, status, flaky)
         SELECT $1, x.test_case_id, x.id, x.status, x.flaky
           FROM unnest($2::uuid[], $3::uuid[], $4::result_status[], $5::boolean[])
                WITH ORDINALITY AS x(test_case_id, id, status, flaky, n)
          ORDER BY x.n
         ON CONFLICT (test_run_id, test_case_id) DO UPDATE
            SET result_id = EXCLUDED.result_id, status = EXCLUDED.status, flaky = EXCLUDED.flaky,
                replaced_status = c.status, replaced_flaky = c.flaky
         RETURNING c.status, c.flaky, xmax = 0 AS created, c.replaced_status, c.replaced_flaky
       )
       SELECT ${COUNT_CHANGES} FROM changed`,
);

/** Adds a change to a run's counts. */
const ADD_COUNTS = prepared(
  `UPDATE test_run SET ${COUNT_COLUMNS.map((c, i) => `${c} = ${c} + $${i + 2}`).join(', ')}, updated_at = now()
    WHERE id = $1`,
);

const RESULT_COLUMNS =
  'id, organization_id, test_run_id, test_case_id, status, duration_ms, message, defects, retries, flaky, executed_at';

/**
 * The indexes of the items in rounds of about `WRITE_CHUNK`, in the order of their cases
 * (stable, so a case's items keep their order and its last one becomes its current result):
 * concurrent batches into one run lock the cases they share in the same order, and no case
 * spans two rounds.
 */
function* roundsOf(caseIds: string[]): Generator<number[]> {
  const order = orderByCase(caseIds);
  for (let start = 0; start < order.length;) {
    let end = Math.min(start + WRITE_CHUNK, order.length);
    while (end < order.length && caseIds[order[end]] === caseIds[order[end - 1]]) end++;
    yield order.slice(start, end);
    start = end;
  }
}

/**
 * The set-based write path of results: a whole batch in a constant number of statements per
 * round of `WRITE_CHUNK`, inside the caller's transaction. Cases are resolved (and missing
 * ones created) in a few statements; the cases' current results are one upsert, which also
 * returns what each replaced; the results go in with COPY, PostgreSQL's bulk load, their
 * link to their (already locked) current-result rows checked once for the statement; the
 * run's counts are one atomic increment, the batch's last statement. Batches into one run
 * (parallel CI shards) run side by side: they only wait for each other on the cases they
 * share and, briefly, on the counts.
 */
@Injectable()
export class ResultWriter {
  private readonly logger = new Logger(ResultWriter.name);

  constructor(
    private readonly events: EventsService,
    private readonly caseIds: CaseIdCache,
    private readonly transactions: Transactions,
  ) {}

  /**
   * Stores a batch of results. `newRun` says the run was opened in this same transaction, so
   * no other batch can see it and none of its cases has a current result yet: they are loaded
   * with COPY, not upserted. `collect` keeps the stored results for the response.
   */
  async write(
    manager: EntityManager,
    run: TestRun,
    items: ResultItem[],
    options: WriteOptions = {},
  ): Promise<WrittenBatch> {
    // Case ids this process remembers may name a case deleted by hand since: then the batch
    // fails its reference check, is undone to this savepoint, and is written again without
    // them. They are taken once, here, so a batch that uses any has the savepoint. (It is not
    // released: the commit ends it, one round trip less.)
    const remembered = this.caseIds.of(run.projectId);
    if (remembered) await manager.query('SAVEPOINT write_batch');
    let attempt: Attempt;
    try {
      attempt = await this.writeBatch(manager, run, items, options, remembered);
    } catch (error) {
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION || !remembered) throw error;
      await manager.query('ROLLBACK TO SAVEPOINT write_batch');
      this.caseIds.clear();
      attempt = await this.writeBatch(manager, run, items, options, undefined);
    }
    // The cases it created are remembered once they are committed, after the response has
    // gone (a report's 20,000 take milliseconds; a batch that comes before finds them in the
    // database).
    const { created } = attempt;
    if (created.length > 0) {
      this.transactions.afterCommit(() =>
        setImmediate(() => {
          try {
            for (const [name, id] of created) this.caseIds.remember(run.projectId, name, id);
          } catch (error) {
            this.logger.error(`remembering created cases failed: ${(error as Error).message}`);
          }
        }),
      );
    }
    return attempt.written;
  }

  private async writeBatch(
    manager: EntityManager,
    run: TestRun,
    items: ResultItem[],
    options: WriteOptions,
    remembered: RememberedCases | undefined,
  ): Promise<Attempt> {
    const caseField = options.caseField ?? ((i: number) => `results[${i}].test_case_id`);
    // What the created_at default stores for this transaction, at the column's precision.
    const [{ now }]: Array<{ now: Date }> = await manager.query(
      'SELECT now()::timestamptz(3) AS now',
    );
    const resolved = await this.resolveCases(manager, run, items, caseField, remembered);

    const collected: StoredResult[] = [];
    // Prepared in slices, giving way between them: the statements under way (the new cases'
    // creation, the previous round) go on being sent and fed while a round is prepared.
    const build = async (round: number[], caseIds: string[]): Promise<StoredResult[]> => {
      const results = new Array<StoredResult>(round.length);
      for (let start = 0; start < round.length; start += BUILD_SLICE) {
        await giveWay();
        for (let k = start; k < Math.min(start + BUILD_SLICE, round.length); k++) {
          const i = round[k];
          const item = items[i];
          results[k] = {
            id: uuid7(),
            test_run_id: run.id,
            test_case_id: caseIds[i],
            status: item.status,
            duration_ms: item.durationMs,
            message: item.message,
            defects: item.defects,
            retries: item.retries,
            flaky: item.status === 'passed' && item.retries > 0,
            executed_at: item.executedAt,
            created_at: now,
          };
        }
      }
      if (options.collect) round.forEach((i, k) => (collected[i] = results[k]));
      return results;
    };
    // The rounds of the batch, each prepared when asked for.
    const preparer = (caseIds: string[]) => {
      const rounds = roundsOf(caseIds);
      return async () => {
        const next = rounds.next();
        return next.done ? null : build(next.value, caseIds);
      };
    };
    // The first round is prepared while the database creates the new cases; if some existed
    // after all, their ids change and it is prepared again.
    let prepareNext = preparer(resolved.caseIds);
    let first = await prepareNext();
    const { created, corrected } = await resolved.creation;
    if (corrected) {
      prepareNext = preparer(corrected);
      first = await prepareNext();
    }
    const delta = noCounts();
    await storeWhilePreparing(first, prepareNext, (round) =>
      this.storeRound(manager, run, round, delta, options.newRun ?? false),
    );
    await this.addCounts(manager, run, delta);
    return { written: { results: collected, createdTestCases: created.length }, created };
  }

  /** One round: the cases' current results, then the results, then their events. */
  private async storeRound(
    manager: EntityManager,
    run: TestRun,
    results: StoredResult[],
    delta: Counts,
    newRun: boolean,
  ): Promise<void> {
    const current = results.filter(
      (r, k) => k === results.length - 1 || results[k + 1].test_case_id !== r.test_case_id,
    );
    // The current results first: each stored result references its case's row in
    // test_run_case, which this transaction then already holds.
    const change = newRun
      ? await this.insertCurrent(manager, run, current)
      : await this.upsertCurrent(manager, run, current);
    await this.copy(manager, 'test_result', RESULT_COLUMNS, resultLines(run, results));
    await this.events.recordMany(
      manager,
      run.organizationId,
      'testcase.failed.v1',
      results.filter((result) => result.status === 'failed').map(toResultResponse),
    );
    for (const column of COUNT_COLUMNS) delta[column] += change[column];
  }

  /**
   * Makes each case's result of this batch its current one and returns the change to the
   * run's counts, atomically under the rows' locks (concurrent batches into one run share
   * cases): a new row adds its status, a replaced one moves a count from the old status.
   */
  private async upsertCurrent(
    manager: EntityManager,
    run: TestRun,
    current: StoredResult[],
  ): Promise<Counts> {
    const [change]: Counts[] = await manager.query(UPSERT_CURRENT, [
      run.id,
      arrayLiteral(current.map((r) => r.test_case_id)),
      arrayLiteral(current.map((r) => r.id)),
      arrayLiteral(current.map((r) => r.status)),
      arrayLiteral(current.map((r) => (r.flaky ? 't' : 'f'))),
    ]);
    return change;
  }

  /** `upsertCurrent` for a run opened in this transaction: every row is new. */
  private async insertCurrent(
    manager: EntityManager,
    run: TestRun,
    current: StoredResult[],
  ): Promise<Counts> {
    await this.copy(
      manager,
      'test_run_case',
      'test_run_id, test_case_id, result_id, status, flaky',
      lines(
        current,
        (r) => `${run.id}\t${r.test_case_id}\t${r.id}\t${r.status}\t${r.flaky ? 't' : 'f'}\n`,
      ),
    );
    const change = noCounts();
    change.total = current.length;
    for (const r of current) {
      change[r.status]++;
      if (r.flaky) change.flaky++;
    }
    return change;
  }

  /** COPY text-format lines into a table on the transaction's own connection, as they come. */
  private async copy(
    manager: EntityManager,
    table: string,
    columns: string,
    data: Iterable<string>,
  ): Promise<void> {
    const runner = manager.queryRunner;
    if (!runner) throw new Error('ResultWriter needs a transaction');
    const client = (await runner.connect()) as PoolClient;
    await pipeline(
      Readable.from(pieces(data)),
      client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`)),
    );
  }

  /**
   * Case ids for every item; cases named by an unknown automation id are created. Look-ups
   * and creation go in rounds of `WRITE_CHUNK`; new cases are created in sorted order, so
   * concurrent batches creating the same ones lock them in the same order.
   */
  private async resolveCases(
    manager: EntityManager,
    run: TestRun,
    items: ResultItem[],
    caseField: (index: number) => string,
    remembered: RememberedCases | undefined,
  ): Promise<ResolvedCases> {
    const byId = new Set<string>();
    for (const item of items) if (item.testCaseId !== null) byId.add(item.testCaseId);
    const known = new Set<string>();
    for (const ids of chunks([...byId])) {
      const found: Array<{ id: string }> = await manager.query(
        'SELECT id FROM test_case WHERE project_id = $1 AND id = ANY($2::uuid[])',
        [run.projectId, arrayLiteral(ids)],
      );
      for (const row of found) known.add(row.id);
    }
    const missing = items.findIndex(
      (item) => item.testCaseId !== null && !known.has(item.testCaseId),
    );
    if (missing >= 0) {
      const field = caseField(missing);
      throw ApiError.invalidField(field, `${field} does not name a test case of the run's project`);
    }

    // Each item's case: named, or remembered by this process; the others are pending.
    const caseIds = new Array<string>(items.length);
    const pending: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const id = item.testCaseId ?? remembered?.ids.get(item.automationId as string);
      if (id === undefined) pending.push(i);
      else caseIds[i] = id;
    }
    // The pending automation ids, each with the first item naming it, and their cases:
    // found in the database, or proposed for new cases.
    const firstItem = new Map<string, ResultItem>();
    for (const i of pending) {
      const name = items[i].automationId as string;
      if (!firstItem.has(name)) firstItem.set(name, items[i]);
    }
    const idByAutomationId = new Map<string, string>();
    const lookUp = async (automationIds: string[]) => {
      for (const names of chunks(automationIds)) {
        const rows: Array<{ id: string; automation_id: string }> = await manager.query(
          'SELECT id, automation_id FROM test_case WHERE project_id = $1 AND automation_id = ANY($2::text[])',
          [run.projectId, arrayLiteral(names)],
        );
        for (const row of rows) {
          idByAutomationId.set(row.automation_id, row.id);
          this.caseIds.remember(run.projectId, row.automation_id, row.id);
        }
      }
    };
    // In a project whose cases this process remembers (all it has seen), the ones it does not
    // are most likely new (a suite's first report, tests just added): they are created
    // straight away, and any that exists after all turns the creation into its careful form
    // below. Otherwise they are looked up first.
    if (!remembered?.complete) await lookUp([...firstItem.keys()]);
    const unknown: string[] = [];
    for (const name of firstItem.keys()) if (!idByAutomationId.has(name)) unknown.push(name);
    // Code-unit order (the default sort's, with no comparator called per pair). Ids made in
    // this order increase with it, so both of test_case's unique indexes take them in order.
    unknown.sort();
    // New cases get their ids here, so the batch can go on while they are created.
    const newCases: NewCase[] = unknown.map((name) => {
      const first = firstItem.get(name) as ResultItem;
      const id = uuid7();
      idByAutomationId.set(name, id);
      return { name, id, title: first.title ?? name, section: first.section };
    });
    const withPending = (ids: string[]) => {
      for (const i of pending)
        ids[i] = idByAutomationId.get(items[i].automationId as string) as string;
      return ids;
    };
    const create = async () => {
      const created: Array<[string, string]> = [];
      let existed = false;
      for (const cases of chunks(newCases)) {
        let inserted = await this.loadCases(manager, run, cases);
        if (inserted === null) {
          // Some exist after all (not looked up, or created meanwhile by another batch, which
          // committed first: we waited for it): find them, then insert the rest carefully.
          existed = true;
          await lookUp(cases.map((c) => c.name));
          // Those whose proposed id the look-up did not replace.
          const fresh = cases.filter((c) => idByAutomationId.get(c.name) === c.id);
          inserted = await this.insertCases(manager, run, fresh);
          const ours = new Set(inserted);
          const theirs = fresh.filter((c) => !ours.has(c)).map((c) => c.name);
          if (theirs.length > 0) await lookUp(theirs);
        }
        for (const c of inserted) created.push([c.name, c.id]);
      }
      return { created, corrected: existed ? withPending([...caseIds]) : null };
    };
    const creation =
      unknown.length > 0 ? create() : Promise.resolve({ created: [], corrected: null });
    // Awaited by the caller; never left unhandled while it prepares the first round.
    creation.catch(() => undefined);
    return { caseIds: withPending(caseIds), creation };
  }

  /**
   * Loads `cases` (sorted by name, believed new) with COPY under a savepoint and returns them;
   * or null, having loaded none, when one of them exists after all (a unique violation).
   */
  private async loadCases(
    manager: EntityManager,
    run: TestRun,
    cases: NewCase[],
  ): Promise<NewCase[] | null> {
    await manager.query('SAVEPOINT create_cases');
    try {
      await this.copy(
        manager,
        'test_case',
        'id, organization_id, project_id, title, automation_id, section',
        lines(
          cases,
          (c) =>
            `${c.id}\t${run.organizationId}\t${run.projectId}\t${copyText(c.title)}\t${copyText(
              c.name,
            )}\t${copyText(c.section)}\n`,
        ),
      );
      await manager.query('RELEASE SAVEPOINT create_cases');
      return cases;
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await manager.query('ROLLBACK TO SAVEPOINT create_cases');
      return null;
    }
  }

  /**
   * Inserts `cases` (sorted by name), skipping any that exists (or that a concurrent batch is
   * creating: we wait for it), and returns those inserted.
   */
  private async insertCases(
    manager: EntityManager,
    run: TestRun,
    cases: NewCase[],
  ): Promise<NewCase[]> {
    if (cases.length === 0) return [];
    const rows: Array<{ automation_id: string }> = await manager.query(
      `INSERT INTO test_case (id, organization_id, project_id, title, automation_id, section)
       SELECT x.id, $1, $2, x.title, x.automation_id, x.section
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[])
              WITH ORDINALITY AS x(id, automation_id, title, section, n)
        ORDER BY x.n
       ON CONFLICT (project_id, automation_id) DO NOTHING
       RETURNING automation_id`,
      [
        run.organizationId,
        run.projectId,
        arrayLiteral(cases.map((c) => c.id)),
        arrayLiteral(cases.map((c) => c.name)),
        arrayLiteral(cases.map((c) => c.title)),
        arrayLiteral(cases.map((c) => c.section)),
      ],
    );
    const inserted = new Set(rows.map((row) => row.automation_id));
    return cases.filter((c) => inserted.has(c.name));
  }

  private async addCounts(manager: EntityManager, run: TestRun, delta: Counts): Promise<void> {
    await manager.query(ADD_COUNTS, [run.id, ...COUNT_COLUMNS.map((c) => delta[c])]);
    for (const column of COUNT_COLUMNS) run[column] += delta[column];
  }
}
