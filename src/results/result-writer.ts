import { Injectable } from '@nestjs/common';
import { uuid7 } from '../common/uuid7.js';
import { EventsService } from '../events/events.service.js';
import { CaseOutcomes } from '../flakiness/case-outcomes.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';
import { CaseIdCache, type RememberedCases } from './case-id-cache.js';
import { CaseResolver, type CreatedCase } from './case-resolver.js';
import { keepCurrentResults, lastOfEachSlot } from './current-results.js';
import { failureSignature } from './failure-signature.js';
import { yieldToPendingIo, storeWhilePreparing } from './pipelined.js';
import { toResultResponse } from './result-response.js';
import type { ResultAttempt, ResultItem } from './result-items.js';
import { ReleaseSlots, type SlotsOfBatch } from './release-slots.js';
import { ResultsRepository } from './results.repository.js';
import { roundsInSlotOrder, slotKeys } from './rounds.js';
import { addTo, configurationsOf, noCounts, type Counts } from './run-counts.js';
import type { AttemptResponse, StoredResult } from './stored-result.js';

// A batch is written in rounds (`rounds.ts`): each round is prepared (its results made) while
// the one before is stored, the pipelining `storeWhilePreparing` does.

export interface WriteOptions {
  /** The field a missing `test_case_id` of item `index` is reported as. */
  caseField?: (index: number) => string;
  newRun?: boolean;
  collect?: boolean;
}

export interface WrittenBatch {
  /** The stored results (one per item) in the order of the items, when the caller asked for them. */
  results: StoredResult[];
  createdTestCases: number;
}

/** What a batch's write made and what the writer needs to know after it. */
interface BatchOutcome {
  written: WrittenBatch;
  created: CreatedCase[];
}

/** The items of a batch, and what every stored result of it shares. */
interface Batch {
  run: TestRun;
  items: ResultItem[];
  /** What the created_at default stores for this transaction, at the column's precision. */
  createdAt: Date;
  /** Each item's stored result, by index, when the caller asked for them; else null. */
  collected: StoredResult[] | null;
}

const FOREIGN_KEY_VIOLATION = '23503';
/** Shared by the results without earlier attempts (most), never changed. */
const NO_ATTEMPTS: AttemptResponse[] = [];
/** Results made between two turns of the event loop. */
const RESULTS_PER_TURN = 1000;

/**
 * The set-based write path of results: a whole batch in a constant number of statements per
 * round, inside the caller's transaction. Cases are resolved (and missing ones created) in a
 * few statements; the cases' current results are one upsert, which also returns what each
 * replaced; the results go in with COPY, PostgreSQL's bulk load, their link to their (already
 * locked) current-result rows checked once for the statement; the run's counts are one atomic
 * increment, the batch's last statement. Batches into one run (parallel CI shards) run side by
 * side: they only wait for each other on the cases they share and, briefly, on the counts.
 */
@Injectable()
export class ResultWriter {
  constructor(
    private readonly results: ResultsRepository,
    private readonly events: EventsService,
    private readonly caseIds: CaseIdCache,
    private readonly cases: CaseResolver,
    private readonly outcomes: CaseOutcomes,
    private readonly releaseSlots: ReleaseSlots,
  ) {}

  /**
   * Stores a batch of results. `newRun` says the run was opened in this same transaction, so
   * no other batch can see it and none of its cases has a current result yet: they are loaded
   * with COPY, not upserted. `collect` keeps the stored results for the response.
   */
  async write(
    run: TestRun,
    items: ResultItem[],
    options: WriteOptions = {},
  ): Promise<WrittenBatch> {
    // Case ids this process remembers may name a case deleted by hand since: then the batch
    // fails its reference check, is undone to this savepoint, and is written again without
    // them. They are taken once, here, so a batch that uses any has the savepoint. (It is not
    // released: the commit ends it, one round trip less.)
    const remembered = this.caseIds.of(run.projectId);
    if (remembered) await this.results.savepointBatch();
    let outcome: BatchOutcome;
    try {
      outcome = await this.writeBatch(run, items, options, remembered);
    } catch (error) {
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION || !remembered) throw error;
      await this.results.undoBatch();
      this.caseIds.clear();
      outcome = await this.writeBatch(run, items, options, undefined);
    }
    this.cases.rememberWhenCommitted(run.projectId, outcome.created);
    return outcome.written;
  }

  private async writeBatch(
    run: TestRun,
    items: ResultItem[],
    options: WriteOptions,
    remembered: RememberedCases | undefined,
  ): Promise<BatchOutcome> {
    const createdAt = await this.results.transactionTime();
    const batch: Batch = { run, items, createdAt, collected: options.collect ? [] : null };
    // 1. Each item's case: named, remembered by this process, or looked up; the others are
    // proposed as new cases.
    const caseField = options.caseField ?? ((i: number) => `results[${i}].test_case_id`);
    const resolved = await this.cases.resolve(run, items, caseField, remembered);
    // 2. The new cases are created with COPY while the first round is prepared; if some
    // existed after all, their ids change and it is prepared again.
    let prepareNext = roundPreparer(batch, resolved.caseIds);
    let first = await prepareNext();
    const { created, corrected } = await resolved.creation;
    if (corrected) {
      prepareNext = roundPreparer(batch, corrected);
      first = await prepareNext();
    }
    // 3-4. Each round's current results, then the results themselves, while the next round
    // is prepared.
    const countChange = noCounts();
    const releaseSlots = this.releaseSlots.batchOf(run);
    await storeWhilePreparing(first, prepareNext, (results) =>
      this.storeRound(run, results, countChange, releaseSlots, options.newRun ?? false),
    );
    // 5. The release's slots (a run of a release), then the run's counts and configurations,
    // once each: the last statements, so the rows they lock, which other batches share, are
    // held briefly.
    await releaseSlots?.record();
    await this.results.addRunCounts(run.id, countChange, configurationsOf(items));
    addTo(run, countChange);
    return {
      written: { results: batch.collected ?? [], createdTestCases: created.length },
      created,
    };
  }

  /**
   * One round: the cases' current results (gathered for the release's slots, for a run of a
   * release), then the results, then their events.
   */
  private async storeRound(
    run: TestRun,
    results: StoredResult[],
    countChange: Counts,
    releaseSlots: SlotsOfBatch | null,
    newRun: boolean,
  ): Promise<void> {
    // The current results first: each stored result references its case's row in
    // test_run_case, which this transaction then already holds.
    const current = lastOfEachSlot(results);
    const change = await keepCurrentResults(this.results, run, current, newRun);
    releaseSlots?.add(current);
    // A submitted run's results already count in the flaky list's summary.
    if (run.status === 'submitted') await this.outcomes.recordResults(run, results);
    await this.results.copyResults(run, results);
    await this.events.recordMany(
      run.organizationId,
      'testcase.failed.v1',
      results.filter((result) => result.status === 'failed').map(toResultResponse),
    );
    addTo(countChange, change);
  }
}

/** The batch's rounds, each prepared when asked for (null after the last). */
function roundPreparer(batch: Batch, caseIds: string[]): () => Promise<StoredResult[] | null> {
  const rounds = roundsInSlotOrder(slotKeys(caseIds, batch.items));
  return async () => {
    const next = rounds.next();
    return next.done ? null : prepareRound(batch, next.value, caseIds);
  };
}

/**
 * The stored results of a round's items (their indexes), made a thousand at a time, giving
 * way between them: the statements under way (the new cases' creation, the previous round)
 * go on being sent and fed while a round is prepared.
 */
async function prepareRound(
  batch: Batch,
  round: number[],
  caseIds: string[],
): Promise<StoredResult[]> {
  const { run, items, createdAt } = batch;
  const results = new Array<StoredResult>(round.length);
  for (let start = 0; start < round.length; start += RESULTS_PER_TURN) {
    await yieldToPendingIo();
    for (let k = start; k < Math.min(start + RESULTS_PER_TURN, round.length); k++) {
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
        created_at: createdAt,
        failure_type: item.failureType,
        stack_trace: item.stackTrace,
        // Null unless failed or blocked, decided before any hashing: passed results pay nothing.
        signature: failureSignature(item.status, item.failureType, item.message),
        configuration: item.configuration,
        attempts: item.attempts.length === 0 ? NO_ATTEMPTS : item.attempts.map(toAttemptResponse),
      };
    }
  }
  const collected = batch.collected;
  if (collected) round.forEach((i, k) => (collected[i] = results[k]));
  return results;
}

function toAttemptResponse(attempt: ResultAttempt): AttemptResponse {
  return {
    status: attempt.status,
    duration_ms: attempt.durationMs,
    message: attempt.message,
    failure_type: attempt.failureType,
    stack_trace: attempt.stackTrace,
  };
}
