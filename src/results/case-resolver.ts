import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { uuid7 } from '../common/uuid7.js';
import { Transactions } from '../database/transactions.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { CaseIdCache, type RememberedCases } from './case-id-cache.js';
import { ResultCasesRepository, type NewCase } from './result-cases.repository.js';
import type { ResultItem } from './result-items.js';
import { inRounds } from './rounds.js';

/** A case a batch created: its automation id and its id. */
export type CreatedCase = [automationId: string, caseId: string];

/** The case of each item of a batch, and the creation of the new ones. */
export interface ResolvedCases {
  /** Each item's case id; new cases with the ids they are being created with. */
  caseIds: string[];
  /** Settles once the new cases exist. */
  creation: Promise<CaseCreation>;
}

export interface CaseCreation {
  created: CreatedCase[];
  /** Every item's case id again, when some new cases existed after all (their ids changed). */
  corrected: string[] | null;
}

/**
 * Finds the case of each item of a batch, and creates the cases named by an unknown
 * automation id. Look-ups and creation go in rounds; new cases are created in sorted order,
 * so concurrent batches creating the same ones lock them in the same order.
 */
@Injectable()
export class CaseResolver {
  private readonly logger = new Logger(CaseResolver.name);

  constructor(
    private readonly caseIds: CaseIdCache,
    private readonly transactions: Transactions,
    private readonly cases: ResultCasesRepository,
  ) {}

  /**
   * The items' cases. The new cases' creation goes on while the caller prepares the batch;
   * `caseField` names the field a missing `test_case_id` of item `index` is reported as.
   */
  async resolve(
    run: TestRun,
    items: ResultItem[],
    caseField: (index: number) => string,
    remembered: RememberedCases | undefined,
  ): Promise<ResolvedCases> {
    await this.checkNamedCases(run, items, caseField);
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
    const firstItems = firstItemByAutomationId(items, pending);
    const idByAutomationId = new Map<string, string>();
    // In a project whose cases this process remembers (all it has seen), the ones it does not
    // are most likely new (a suite's first report, tests just added): they are created
    // straight away, and any that exists after all turns the creation into its careful form.
    // Otherwise they are looked up first.
    if (!remembered?.complete) {
      await this.lookUp(run, [...firstItems.keys()], idByAutomationId);
    }
    const newCases = proposeNewCases(firstItems, idByAutomationId);
    const withPending = (ids: string[]) => {
      for (const i of pending)
        ids[i] = idByAutomationId.get(items[i].automationId as string) as string;
      return ids;
    };
    const creation: Promise<CaseCreation> =
      newCases.length > 0
        ? this.create(run, newCases, idByAutomationId).then(({ created, someExisted }) => ({
            created,
            corrected: someExisted ? withPending([...caseIds]) : null,
          }))
        : Promise.resolve({ created: [], corrected: null });
    // Awaited by the caller; never left unhandled while it prepares the first round.
    creation.catch(() => undefined);
    return { caseIds: withPending(caseIds), creation };
  }

  /**
   * Remembers the cases a batch created once they are committed, after the response has gone
   * (a report's 20,000 take milliseconds; a batch that comes before finds them in the database).
   */
  rememberWhenCommitted(projectId: string, created: CreatedCase[]): void {
    if (created.length === 0) return;
    this.transactions.afterCommit(() =>
      setImmediate(() => {
        try {
          for (const [name, id] of created) this.caseIds.remember(projectId, name, id);
        } catch (error) {
          this.logger.error(`remembering created cases failed: ${(error as Error).message}`);
        }
      }),
    );
  }

  /** Looks cases up by automation id into `found`, and remembers them. */
  private async lookUp(
    run: TestRun,
    automationIds: string[],
    found: Map<string, string>,
  ): Promise<void> {
    for (const names of inRounds(automationIds)) {
      const rows = await this.cases.byAutomationId(run.projectId, names);
      for (const row of rows) {
        found.set(row.automation_id, row.id);
        this.caseIds.remember(run.projectId, row.automation_id, row.id);
      }
    }
  }

  /**
   * Creates `newCases`; where some exist after all (not looked up, or created meanwhile by
   * another batch, which committed first: we waited for it), their ids in `found` are replaced
   * by the existing ones.
   */
  private async create(
    run: TestRun,
    newCases: NewCase[],
    found: Map<string, string>,
  ): Promise<{ created: CreatedCase[]; someExisted: boolean }> {
    const created: CreatedCase[] = [];
    let someExisted = false;
    for (const cases of inRounds(newCases)) {
      let inserted = await this.cases.load(run, cases);
      if (inserted === null) {
        someExisted = true;
        inserted = await this.createCarefully(run, cases, found);
      }
      for (const c of inserted) created.push([c.name, c.id]);
    }
    return { created, someExisted };
  }

  /** Finds those of `cases` that exist, then inserts the rest, and returns those inserted. */
  private async createCarefully(
    run: TestRun,
    cases: NewCase[],
    found: Map<string, string>,
  ): Promise<NewCase[]> {
    await this.lookUp(
      run,
      cases.map((c) => c.name),
      found,
    );
    // Those whose proposed id the look-up did not replace.
    const fresh = cases.filter((c) => found.get(c.name) === c.id);
    const inserted = await this.cases.insert(run, fresh);
    const insertedHere = new Set(inserted);
    const createdMeanwhile = fresh.filter((c) => !insertedHere.has(c)).map((c) => c.name);
    if (createdMeanwhile.length > 0) await this.lookUp(run, createdMeanwhile, found);
    return inserted;
  }

  /** Fails the batch with a 400 naming the first item whose `test_case_id` is not the project's. */
  private async checkNamedCases(
    run: TestRun,
    items: ResultItem[],
    caseField: (index: number) => string,
  ): Promise<void> {
    const named = new Set<string>();
    for (const item of items) if (item.testCaseId !== null) named.add(item.testCaseId);
    const known = new Set<string>();
    for (const ids of inRounds([...named])) {
      const found = await this.cases.knownIds(run.projectId, ids);
      for (const row of found) known.add(row.id);
    }
    const missing = items.findIndex(
      (item) => item.testCaseId !== null && !known.has(item.testCaseId),
    );
    if (missing >= 0) {
      const field = caseField(missing);
      throw ApiError.invalidField(field, `${field} does not name a test case of the run's project`);
    }
  }
}

/** The automation ids of the `pending` items, each with the first item naming it. */
function firstItemByAutomationId(items: ResultItem[], pending: number[]): Map<string, ResultItem> {
  const firstItems = new Map<string, ResultItem>();
  for (const i of pending) {
    const name = items[i].automationId as string;
    if (!firstItems.has(name)) firstItems.set(name, items[i]);
  }
  return firstItems;
}

/**
 * The cases of the automation ids not in `found`, in name order, with their ids chosen here
 * (and added to `found`), so the batch can go on while they are created.
 */
function proposeNewCases(
  firstItems: Map<string, ResultItem>,
  found: Map<string, string>,
): NewCase[] {
  const unknown: string[] = [];
  for (const name of firstItems.keys()) if (!found.has(name)) unknown.push(name);
  // Code-unit order (the default sort's, with no comparator called per pair). Ids made in
  // this order increase with it, so both of test_case's unique indexes take them in order.
  unknown.sort();
  return unknown.map((name) => {
    const first = firstItems.get(name) as ResultItem;
    const id = uuid7();
    found.set(name, id);
    return { name, id, title: first.title ?? name, section: first.section };
  });
}
