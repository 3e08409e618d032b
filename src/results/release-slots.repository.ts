import { Injectable } from '@nestjs/common';
import { arrayLiteral } from '../database/copy.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { ResultStatus } from './entities/result-status.js';

/** A slot's new current result in a run, as a batch wrote it. */
export interface SlotResult {
  test_case_id: string;
  /** '' for none, as in `test_run_case`. */
  configuration: string;
  id: string;
  status: ResultStatus;
}

/** The row a slot's latest current result across the release's runs gives it. */
const LATEST = `(SELECT c.test_run_id, c.result_id, c.status, c.result_created_at
                   FROM test_run run
                   JOIN test_run_case c ON c.test_run_id = run.id
                    AND c.test_case_id = s.test_case_id AND c.configuration = s.configuration
                  WHERE run.release_id = s.release_id AND run.organization_id = s.organization_id
                  ORDER BY c.result_created_at DESC, c.result_id DESC LIMIT 1)`;

/** The proposed row (EXCLUDED) is later than the slot's (`s`): by storage time, then id. */
const NEWER =
  '(EXCLUDED.result_created_at, EXCLUDED.result_id) > (s.result_created_at, s.result_id)';
const TAKE_NEWER = (column: string) =>
  `${column} = CASE WHEN ${NEWER} THEN EXCLUDED.${column} ELSE s.${column} END`;

/**
 * A batch wrote the current results ($4…$7, one per slot, in slot order) of run $3 of release
 * $2 (organization $1), all stored at $8: each slot of the release takes its run's result
 * where it is later than the slot's latest. Rows are locked in slot order, as the batch's
 * current results were, so concurrent batches into the release's runs never deadlock.
 *
 * Where the slot's latest was this run's replaced result and the new one is earlier (two
 * batches into one run that committed in the other order than their times, or stored in the
 * same millisecond with a smaller id), the latest is no longer any run's current result: the
 * row is locked and kept as it is, and returned, so that `RECOMPUTE` reads it again from the
 * runs, in a statement that sees whatever committed before this one locked it.
 */
const RECORD = sql(
  'releaseSlots.record',
  `WITH x AS (
         SELECT * FROM unnest($4::uuid[], $5::text[], $6::uuid[], $7::result_status[])
                       WITH ORDINALITY AS x(test_case_id, configuration, result_id, status, n)
       ),
       kept AS (
         INSERT INTO release_slot AS s (organization_id, release_id, test_case_id, configuration, test_run_id, result_id, status, result_created_at)
         SELECT $1, $2, x.test_case_id, x.configuration, $3, x.result_id, x.status, $8
           FROM x ORDER BY x.n
         ON CONFLICT (organization_id, release_id, test_case_id, configuration) DO UPDATE
            SET ${['test_run_id', 'result_id', 'status', 'result_created_at'].map(TAKE_NEWER).join(',\n                ')}
          WHERE ${NEWER}
             OR (s.test_run_id = EXCLUDED.test_run_id AND s.result_id <> EXCLUDED.result_id)
         RETURNING s.test_case_id, s.configuration, s.result_id
       )
       SELECT kept.test_case_id, kept.configuration FROM kept
         JOIN x ON x.test_case_id = kept.test_case_id AND x.configuration = kept.configuration
        WHERE kept.result_id <> x.result_id`,
);

/**
 * Slots ($3, $4) of release $2 (organization $1), locked by this transaction, take their
 * latest current result across the release's runs anew (each run's row read by its key).
 */
const RECOMPUTE = sql(
  'releaseSlots.recompute',
  `UPDATE release_slot s
      SET (test_run_id, result_id, status, result_created_at) = ${LATEST}
     FROM unnest($3::uuid[], $4::text[]) AS x(test_case_id, configuration)
    WHERE s.organization_id = $1 AND s.release_id = $2
      AND s.test_case_id = x.test_case_id AND s.configuration = x.configuration`,
);

/**
 * The slots of release $2 (organization $1) whose latest came from runs $3, which retention has
 * just deleted, locked in slot order, the order result batches lock them in (`case-order.ts`:
 * code units, so the configuration in the "C" collation), so the two never deadlock; a batch
 * that holds one commits first, and the statements after this see it. Read through the key's
 * (organization, release) prefix.
 */
const LOCK_OF_RUNS = sql(
  'releaseSlots.lockOfRuns',
  `SELECT s.test_case_id FROM release_slot s
    WHERE s.organization_id = $1 AND s.release_id = $2 AND s.test_run_id = ANY($3::uuid[])
    ORDER BY s.test_case_id, s.configuration COLLATE "C"
      FOR UPDATE`,
);

/**
 * Those slots (locked by `LOCK_OF_RUNS`) take the latest current result of the release's runs
 * that remain, each read by its key; then the ones no remaining run has are deleted.
 */
const RETAKE_OF_RUNS = sql(
  'releaseSlots.retakeOfRuns',
  `UPDATE release_slot s
      SET (test_run_id, result_id, status, result_created_at) =
          (l.test_run_id, l.result_id, l.status, l.result_created_at)
     FROM release_slot o
    CROSS JOIN LATERAL (SELECT c.test_run_id, c.result_id, c.status, c.result_created_at
                          FROM test_run run
                          JOIN test_run_case c ON c.test_run_id = run.id
                           AND c.test_case_id = o.test_case_id AND c.configuration = o.configuration
                         WHERE run.release_id = o.release_id AND run.organization_id = o.organization_id
                           AND run.id <> ALL($3::uuid[])
                         ORDER BY c.result_created_at DESC, c.result_id DESC LIMIT 1) l
    WHERE o.organization_id = $1 AND o.release_id = $2 AND o.test_run_id = ANY($3::uuid[])
      AND s.organization_id = o.organization_id AND s.release_id = o.release_id
      AND s.test_case_id = o.test_case_id AND s.configuration = o.configuration`,
);

/** Whether release $2 (of organization $1) has a run other than runs $3. */
const OTHER_RUNS_REMAIN = sql(
  'releaseSlots.otherRunsRemain',
  `SELECT EXISTS (
     SELECT 1 FROM test_run run
      WHERE run.organization_id = $1 AND run.release_id = $2 AND run.id <> ALL($3::uuid[])
   ) AS remain`,
);

/** Every slot of release $2 (of organization $1): none of its runs is left. */
const DELETE_OF_RELEASE = sql(
  'releaseSlots.deleteOfRelease',
  `DELETE FROM release_slot s WHERE s.organization_id = $1 AND s.release_id = $2`,
);

const DELETE_OF_RUNS = sql(
  'releaseSlots.deleteOfRuns',
  `DELETE FROM release_slot s
    WHERE s.organization_id = $1 AND s.release_id = $2 AND s.test_run_id = ANY($3::uuid[])`,
);

/**
 * Rebuilds the rows of releases $1 from their runs' current results: for data loaded in bulk,
 * as the benchmark's seed is. The migration that made the table ran the same over every
 * release.
 */
export const BACKFILL = sql(
  'releaseSlots.backfill',
  `INSERT INTO release_slot AS s (organization_id, release_id, test_case_id, configuration, test_run_id, result_id, status, result_created_at)
   SELECT DISTINCT ON (run.release_id, c.test_case_id, c.configuration)
          run.organization_id, run.release_id, c.test_case_id, c.configuration,
          c.test_run_id, c.result_id, c.status, c.result_created_at
     FROM test_run run
     JOIN test_run_case c ON c.test_run_id = run.id
    WHERE run.release_id = ANY($1::uuid[])
    ORDER BY run.release_id, c.test_case_id, c.configuration, c.result_created_at DESC, c.result_id DESC
   ON CONFLICT (organization_id, release_id, test_case_id, configuration) DO UPDATE
      SET test_run_id = EXCLUDED.test_run_id, result_id = EXCLUDED.result_id,
          status = EXCLUDED.status, result_created_at = EXCLUDED.result_created_at`,
);

/** The SQL that keeps `release_slot` (the statements above), on the current transaction. */
@Injectable()
export class ReleaseSlotsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** Records the batch's current results; returns the slots `recompute` must read again. */
  record(
    run: { id: string; organizationId: string; releaseId: string },
    current: SlotResult[],
    storedAt: Date,
  ): Promise<Array<{ test_case_id: string; configuration: string }>> {
    return this.transactions.manager.query(RECORD, [
      run.organizationId,
      run.releaseId,
      run.id,
      arrayLiteral(current.map((r) => r.test_case_id)),
      arrayLiteral(current.map((r) => r.configuration)),
      arrayLiteral(current.map((r) => r.id)),
      arrayLiteral(current.map((r) => r.status)),
      storedAt,
    ]);
  }

  async recompute(
    organizationId: string,
    releaseId: string,
    slots: Array<{ test_case_id: string; configuration: string }>,
  ): Promise<void> {
    await this.transactions.manager.query(RECOMPUTE, [
      organizationId,
      releaseId,
      arrayLiteral(slots.map((slot) => slot.test_case_id)),
      arrayLiteral(slots.map((slot) => slot.configuration)),
    ]);
  }

  /**
   * The release's slots that came from `runIds` (deleted) take the other runs' latest; when
   * no other run is left (retention took the whole release), they all go at once.
   */
  async forgetRuns(organizationId: string, releaseId: string, runIds: string[]): Promise<void> {
    const manager = this.transactions.manager;
    const parameters = [organizationId, releaseId, arrayLiteral(runIds)];
    const [{ remain }]: { remain: boolean }[] = await manager.query(OTHER_RUNS_REMAIN, parameters);
    if (!remain) {
      await manager.query(DELETE_OF_RELEASE, [organizationId, releaseId]);
      return;
    }
    await manager.query(LOCK_OF_RUNS, parameters);
    await manager.query(RETAKE_OF_RUNS, parameters);
    await manager.query(DELETE_OF_RUNS, parameters);
  }
}
