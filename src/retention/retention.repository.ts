import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { RunMonth } from '../database/run-months.js';

/** A project's retention setting, as the internal API shows it. */
export interface RetentionRow {
  id: string;
  retention_days: number | null;
}

/** A run past its project's retention, locked for deletion. */
export interface ExpiredRun {
  id: string;
  organizationId: string;
  projectId: string;
  releaseId: string | null;
  position: number | null;
  status: string;
  total: number;
}

const READ_RETENTION = sql(
  'retention.read',
  `SELECT id, retention_days FROM project WHERE id = $1`,
);

const UPDATE_RETENTION = sql(
  'retention.update',
  `UPDATE project SET retention_days = $2, updated_at = now() WHERE id = $1
   RETURNING id, retention_days`,
);

/** The projects that keep their runs for a number of days. */
const PROJECTS_WITH_RETENTION = sql(
  'retention.projects',
  `SELECT id, retention_days FROM project WHERE retention_days IS NOT NULL ORDER BY id`,
);

/**
 * The oldest runs of project $1 created before $2, at most $3, locked; a run another
 * transaction holds (a batch being written into it, another replica deleting it) is skipped,
 * so replicas sweeping at once never wait on or delete the same run. Reached through the
 * project's (project_id, created_at) index: the cost follows the runs deleted.
 */
const LOCK_EXPIRED_RUNS = sql(
  'retention.lockExpiredRuns',
  `SELECT id, organization_id AS "organizationId", project_id AS "projectId", release_id AS "releaseId",
          position, status, total
   FROM test_run
   WHERE project_id = $1 AND created_at < $2
   ORDER BY created_at, id
   LIMIT $3
   FOR UPDATE SKIP LOCKED`,
);

/**
 * Whether every run of the month [$1, $2) (by id: `database/run-months.ts`) is past its
 * project's retention at $3: none belongs to a project that keeps everything or is younger.
 * Through `test_run`'s key: the cost follows the month's runs.
 */
const MONTH_EXPIRED = sql(
  'retention.monthExpired',
  `SELECT NOT EXISTS (
     SELECT 1 FROM test_run r JOIN project p ON p.id = r.project_id
     WHERE r.id >= $1 AND r.id < $2
       AND (p.retention_days IS NULL
            OR r.created_at >= $3::timestamptz - make_interval(days => p.retention_days))
   ) AS expired`,
);

/** Whether project $1 keeps a run at or before position $2 other than runs $3. */
const OLDER_RUNS_REMAIN = sql(
  'retention.olderRunsRemain',
  `SELECT EXISTS (
     SELECT 1 FROM test_run
     WHERE project_id = $1 AND position <= $2 AND NOT (id = ANY($3::uuid[]))
   ) AS remain`,
);

/** The runs of the month [$1, $2), locked for deletion. */
const LOCK_RUNS_OF_MONTH = sql(
  'retention.lockRunsOfMonth',
  `SELECT id, organization_id AS "organizationId", project_id AS "projectId", release_id AS "releaseId",
          position, status, total
   FROM test_run
   WHERE id >= $1 AND id < $2
   ORDER BY id
   FOR UPDATE`,
);

/**
 * Deletes the runs; their current results (`test_run_case`) and results (`test_result`) go
 * with them through the statement triggers that keep those tables consistent. Each release
 * counts its runs deleted.
 */
const DELETE_RUNS = sql(
  'retention.deleteRuns',
  `WITH gone AS (DELETE FROM test_run WHERE id = ANY($1::uuid[]) RETURNING release_id)
   UPDATE release r SET runs_deleted = r.runs_deleted + g.runs
   FROM (SELECT release_id, count(*)::int AS runs FROM gone
         WHERE release_id IS NOT NULL GROUP BY release_id) g
   WHERE r.id = g.release_id`,
);

/** What retention reads and deletes. */
@Injectable()
export class RunRetentionRepository {
  constructor(private readonly transactions: Transactions) {}

  async read(projectId: string): Promise<RetentionRow | null> {
    const rows: RetentionRow[] = await this.transactions.manager.query(READ_RETENTION, [projectId]);
    return rows[0] ?? null;
  }

  async update(projectId: string, days: number | null): Promise<RetentionRow | null> {
    const [rows]: [RetentionRow[], number] = await this.transactions.manager.query(
      UPDATE_RETENTION,
      [projectId, days],
    );
    return rows[0] ?? null;
  }

  projectsWithRetention(): Promise<{ id: string; retention_days: number }[]> {
    return this.transactions.manager.query(PROJECTS_WITH_RETENTION);
  }

  lockExpiredRuns(projectId: string, before: Date, limit: number): Promise<ExpiredRun[]> {
    return this.transactions.manager.query(LOCK_EXPIRED_RUNS, [projectId, before, limit]);
  }

  async monthExpired(month: RunMonth, now: Date): Promise<boolean> {
    const [row]: { expired: boolean }[] = await this.transactions.manager.query(MONTH_EXPIRED, [
      month.from,
      month.to,
      now,
    ]);
    return row.expired;
  }

  async olderRunsRemain(projectId: string, position: number, ids: string[]): Promise<boolean> {
    const [row]: { remain: boolean }[] = await this.transactions.manager.query(OLDER_RUNS_REMAIN, [
      projectId,
      position,
      ids,
    ]);
    return row.remain;
  }

  lockRunsOfMonth(month: RunMonth): Promise<ExpiredRun[]> {
    return this.transactions.manager.query(LOCK_RUNS_OF_MONTH, [month.from, month.to]);
  }

  async deleteRuns(ids: string[]): Promise<void> {
    await this.transactions.manager.query(DELETE_RUNS, [ids]);
  }
}
