import { Injectable } from '@nestjs/common';
import { arrayLiteral } from '../database/copy.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { TestRun } from '../testruns/entities/test-run.entity.js';

/** Where a run's characters are: its project and its position among the project's runs. */
export type RunPlace = Pick<TestRun, 'id' | 'position' | 'projectId' | 'organizationId'>;

/**
 * How many of a case's most recent runs `case_outcomes` remembers. A case executed fewer than
 * `window` times in the last `OUTCOME_SLOTS` runs of its project has its flaky window cut there.
 */
export const OUTCOME_SLOTS = 2000;

/** A current result's slot character: `P` passed, `R` passed after retries, `F` failed, else `.`. */
const OUTCOME = `CASE WHEN c.status = 'failed' THEN 'F'
                      WHEN c.status = 'passed' AND c.flaky THEN 'R'
                      WHEN c.status = 'passed' THEN 'P'
                      ELSE '.' END`;

// Merging one run's outcome into a slot's row (a case in one configuration, CONTRACT §13) (`o`, the row there) in `ON CONFLICT DO UPDATE`: the
// proposed row (EXCLUDED) is what a new row would be, `base` = the run's position − 1 and
// `outcomes` = the slot alone. The merged row spans from the earlier of the two starts to the
// later of the two ends, padded with `.`, then loses its oldest slots past `OUTCOME_SLOTS`.
// Computed from the row as locked by the upsert, so concurrent writers never lose a slot.
const START = 'least(o.base, EXCLUDED.base)';
const END = 'greatest(o.base + length(o.outcomes), EXCLUDED.base + 1)';
const MERGE = `ON CONFLICT (test_case_id, configuration) DO UPDATE
     SET base = greatest(${START}, ${END} - ${OUTCOME_SLOTS}),
         outcomes = right(
           overlay(repeat('.', o.base - ${START}) || o.outcomes
                     || repeat('.', ${END} - o.base - length(o.outcomes))
                   placing EXCLUDED.outcomes from EXCLUDED.base + 1 - ${START} for 1),
           ${OUTCOME_SLOTS})`;

/**
 * A run ($1, at position $2 of project $3, organization $4) has just been submitted or
 * completed: its passed and failed current results take their slot. Rows are locked in case
 * order, as result batches lock theirs, so concurrent status changes never deadlock.
 */
const RECORD_RUN = sql(
  'flakiness.recordRunOutcomes',
  `INSERT INTO case_outcomes AS o (test_case_id, configuration, project_id, organization_id, base, outcomes)
   SELECT c.test_case_id, c.configuration, $3, $4, $2 - 1, ${OUTCOME}
   FROM test_run_case c
   WHERE c.test_run_id = $1 AND c.status IN ('passed', 'failed')
   ORDER BY c.test_case_id, c.configuration
   ${MERGE}`,
);

/**
 * Results were written into a run that is already submitted ($1, position $2, project $3,
 * organization $4): the slots of the batch's cases ($5) take their new current result. A slot
 * that becomes `.` is written only where the case's row already spans it.
 */
const RECORD_CASES = sql(
  'flakiness.recordCaseOutcomes',
  `INSERT INTO case_outcomes AS o (test_case_id, configuration, project_id, organization_id, base, outcomes)
   SELECT c.test_case_id, c.configuration, $3, $4, $2 - 1, ${OUTCOME}
   FROM test_run_case c
   WHERE c.test_run_id = $1 AND c.test_case_id = ANY($5::uuid[])
     AND (c.status IN ('passed', 'failed') OR EXISTS (
           SELECT 1 FROM case_outcomes x
           WHERE x.test_case_id = c.test_case_id AND x.configuration = c.configuration
             AND $2 > x.base AND $2 <= x.base + length(x.outcomes)))
   ORDER BY c.test_case_id, c.configuration
   ${MERGE}`,
);

/**
 * A run ($1, position $2, project $3, organization $4) was reopened: it is in progress again,
 * so its slots go back to `.` until it is submitted or completed again, when `RECORD_RUN`
 * writes them from its current results. Rewriting the run's own slot, never adding one, is
 * what keeps a reopened run from counting twice. Only rows that span the slot are touched.
 */
const FORGET_RUN = sql(
  'flakiness.forgetRunOutcomes',
  `INSERT INTO case_outcomes AS o (test_case_id, configuration, project_id, organization_id, base, outcomes)
   SELECT c.test_case_id, c.configuration, $3, $4, $2 - 1, '.'
   FROM test_run_case c
   WHERE c.test_run_id = $1 AND EXISTS (
           SELECT 1 FROM case_outcomes x
           WHERE x.test_case_id = c.test_case_id AND x.configuration = c.configuration
             AND $2 > x.base AND $2 <= x.base + length(x.outcomes))
   ORDER BY c.test_case_id, c.configuration
   ${MERGE}`,
);

/**
 * Forgets project $1's runs up to position $2 at once, when none of them is left: each case's
 * characters up to it are cut off the front of its slots (the window then starts after $2, as
 * if they were `.`, which no reader counts), or set to `.` when its slots end there. One write
 * per case, where forgetting the runs one by one writes each case once per run.
 */
const FORGET_RUNS_UP_TO = sql(
  'flakiness.forgetRunsUpTo',
  `UPDATE case_outcomes o
      SET base = CASE WHEN o.base + length(o.outcomes) > $2 THEN $2 ELSE o.base END,
          outcomes = CASE WHEN o.base + length(o.outcomes) > $2 THEN substr(o.outcomes, $2 - o.base + 1)
                          ELSE repeat('.', length(o.outcomes)) END
    WHERE o.project_id = $1 AND o.base < $2
      AND (o.base + length(o.outcomes) > $2 OR o.outcomes ~ '[^.]')`,
);

/**
 * Rebuilds the rows of project $1's cases from its runs (what the writers would have made,
 * but without `.` before a case's first or after its last passed or failed result): for data
 * loaded in bulk, as the benchmark's seed is. The migration that made the table ran the same
 * over every project.
 */
export const BACKFILL = sql(
  'flakiness.backfillCaseOutcomes',
  `WITH slots AS (
     SELECT c.test_case_id, c.configuration, r.position, ${OUTCOME} AS outcome
     FROM test_run r
     JOIN test_run_case c ON c.test_run_id = r.id
     WHERE r.project_id = $1 AND r.status IN ('submitted', 'completed')
       AND c.status IN ('passed', 'failed')
   ),
   spans AS (
     SELECT test_case_id, configuration,
            greatest(min(position) - 1, max(position) - ${OUTCOME_SLOTS}) AS base
     FROM slots
     GROUP BY test_case_id, configuration
   ),
   kept AS (
     SELECT s.test_case_id, s.configuration, spans.base, s.position, s.outcome,
            s.position - coalesce(lag(s.position) OVER (
              PARTITION BY s.test_case_id, s.configuration ORDER BY s.position
            ), spans.base) - 1 AS gap
     FROM slots s
     JOIN spans ON spans.test_case_id = s.test_case_id AND spans.configuration = s.configuration
     WHERE s.position > spans.base
   )
   INSERT INTO case_outcomes AS o (test_case_id, configuration, project_id, organization_id, base, outcomes)
   SELECT k.test_case_id, k.configuration, tc.project_id, tc.organization_id, k.base,
          string_agg(repeat('.', k.gap) || k.outcome, '' ORDER BY k.position)
   FROM kept k
   JOIN test_case tc ON tc.id = k.test_case_id
   GROUP BY k.test_case_id, k.configuration, tc.project_id, tc.organization_id, k.base
   ORDER BY k.test_case_id, k.configuration
   ON CONFLICT (test_case_id, configuration) DO UPDATE SET base = EXCLUDED.base, outcomes = EXCLUDED.outcomes`,
);

/** The SQL of `case_outcomes` (the statements above), on the current transaction. */
@Injectable()
export class CaseOutcomesRepository {
  constructor(private readonly transactions: Transactions) {}

  async recordRun(run: TestRun): Promise<void> {
    await this.transactions.manager.query(RECORD_RUN, [
      run.id,
      run.position,
      run.projectId,
      run.organizationId,
    ]);
  }

  async forgetRun(run: RunPlace): Promise<void> {
    await this.transactions.manager.query(FORGET_RUN, [
      run.id,
      run.position,
      run.projectId,
      run.organizationId,
    ]);
  }

  async forgetRunsUpTo(projectId: string, position: number): Promise<void> {
    await this.transactions.manager.query(FORGET_RUNS_UP_TO, [projectId, position]);
  }

  async recordCases(run: TestRun, caseIds: string[]): Promise<void> {
    await this.transactions.manager.query(RECORD_CASES, [
      run.id,
      run.position,
      run.projectId,
      run.organizationId,
      arrayLiteral(caseIds),
    ]);
  }
}
