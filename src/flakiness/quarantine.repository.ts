import { Injectable } from '@nestjs/common';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';

/** An entry as the statements return it: the API's fields, timestamps still as Dates. */
export interface QuarantineRow {
  test_case_id: string;
  automation_id: string | null;
  reason: string;
  expires_at: Date | null;
  created_at: Date;
}

/** An entry of a list: with its case's title. */
export type ListedQuarantineRow = QuarantineRow & { title: string };

/** An entry is active until its `expires_at`, if it has one. */
const ACTIVE = `(q.expires_at IS NULL OR q.expires_at > now())`;

/**
 * Quarantines a case of the project, or changes its entry. An expired entry is replaced as a
 * new one (its `created_at` starts again, so the list shows it as the newest); an active one
 * keeps its `created_at`. No row: the case is not the project's, in this organization.
 */
const QUARANTINE = sql(
  'flakiness.quarantine',
  `WITH entry AS (
     INSERT INTO quarantine_entry AS q
       (test_case_id, project_id, organization_id, reason, expires_at)
     SELECT tc.id, tc.project_id, tc.organization_id, $4, $5
     FROM test_case tc
     WHERE tc.id = $3 AND tc.project_id = $2 AND tc.organization_id = $1
     ON CONFLICT (test_case_id) DO UPDATE
       SET reason = EXCLUDED.reason, expires_at = EXCLUDED.expires_at, updated_at = now(),
           created_at = CASE WHEN ${ACTIVE} THEN q.created_at ELSE now() END
     RETURNING q.test_case_id, q.reason, q.expires_at, q.created_at
   )
   SELECT entry.test_case_id, tc.automation_id, entry.reason, entry.expires_at, entry.created_at
   FROM entry JOIN test_case tc ON tc.id = entry.test_case_id`,
);

/** Takes a case out of quarantine; no row when it was not (actively) in it. */
const RELEASE = sql(
  'flakiness.unquarantine',
  `WITH entry AS (
     DELETE FROM quarantine_entry q
     WHERE q.test_case_id = $3 AND q.project_id = $2 AND q.organization_id = $1 AND ${ACTIVE}
     RETURNING q.test_case_id, q.reason, q.expires_at, q.created_at
   )
   SELECT entry.test_case_id, tc.automation_id, entry.reason, entry.expires_at, entry.created_at
   FROM entry JOIN test_case tc ON tc.id = entry.test_case_id`,
);

/** A page of the project's active entries, newest first, and how many there are in all. */
const ACTIVE_ENTRIES = sql(
  'flakiness.activeEntries',
  `SELECT q.test_case_id, tc.automation_id, tc.title, q.reason, q.expires_at, q.created_at,
          count(*) OVER ()::int AS total
   FROM quarantine_entry q
   JOIN test_case tc ON tc.id = q.test_case_id
   WHERE q.project_id = $2 AND q.organization_id = $1 AND ${ACTIVE}
   ORDER BY q.created_at DESC, q.test_case_id DESC
   LIMIT $3 OFFSET $4`,
);

/** The case's active entry, if it has one. */
const ACTIVE_ENTRY = sql(
  'flakiness.activeEntry',
  `SELECT q.test_case_id, tc.automation_id, q.reason, q.expires_at, q.created_at
   FROM quarantine_entry q
   JOIN test_case tc ON tc.id = q.test_case_id
   WHERE q.test_case_id = $2 AND q.organization_id = $1 AND ${ACTIVE}`,
);

const COUNT_ACTIVE = sql(
  'flakiness.countActiveEntries',
  `SELECT count(*)::int AS total
   FROM quarantine_entry q
   WHERE q.project_id = $2 AND q.organization_id = $1 AND ${ACTIVE}`,
);

/** Every case of project $2 in quarantine now. */
const ACTIVE_CASES = sql(
  'flakiness.activeCases',
  `SELECT q.test_case_id
   FROM quarantine_entry q
   WHERE q.project_id = $2 AND q.organization_id = $1 AND ${ACTIVE}`,
);

/** Which of the cases $3 of project $2 are in quarantine now. */
const ACTIVE_AMONG = sql(
  'flakiness.activeAmong',
  `SELECT q.test_case_id
   FROM quarantine_entry q
   WHERE q.project_id = $2 AND q.organization_id = $1 AND q.test_case_id = ANY($3::uuid[])
     AND ${ACTIVE}`,
);

@Injectable()
export class QuarantineRepository {
  constructor(private readonly transactions: Transactions) {}

  /** Writes the entry in the caller's transaction; null when the case is not found. */
  async quarantine(
    organizationId: string,
    projectId: string,
    testCaseId: string,
    reason: string,
    expiresAt: Date | null,
  ): Promise<QuarantineRow | null> {
    const rows = await this.transactions.manager.query<QuarantineRow[]>(QUARANTINE, [
      organizationId,
      projectId,
      testCaseId,
      reason,
      expiresAt,
    ]);
    return rows[0] ?? null;
  }

  /** Removes the active entry in the caller's transaction; null when there was none. */
  async unquarantine(
    organizationId: string,
    projectId: string,
    testCaseId: string,
  ): Promise<QuarantineRow | null> {
    const rows = await this.transactions.manager.query<QuarantineRow[]>(RELEASE, [
      organizationId,
      projectId,
      testCaseId,
    ]);
    return rows[0] ?? null;
  }

  async activeEntry(organizationId: string, testCaseId: string): Promise<QuarantineRow | null> {
    const rows = await this.transactions.manager.query<QuarantineRow[]>(ACTIVE_ENTRY, [
      organizationId,
      testCaseId,
    ]);
    return rows[0] ?? null;
  }

  async listActive(
    organizationId: string,
    projectId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: ListedQuarantineRow[]; total: number }> {
    const rows = await this.transactions.manager.query<
      Array<ListedQuarantineRow & { total: number }>
    >(ACTIVE_ENTRIES, [organizationId, projectId, limit, offset]);
    if (rows.length > 0) return { rows, total: rows[0].total };
    if (offset === 0) return { rows, total: 0 };
    // Past the end no row carries the total.
    const [count] = await this.transactions.manager.query<Array<{ total: number }>>(COUNT_ACTIVE, [
      organizationId,
      projectId,
    ]);
    return { rows, total: count.total };
  }

  /** The ids of the project's cases in quarantine now. */
  async activeCases(organizationId: string, projectId: string): Promise<string[]> {
    const rows = await this.transactions.manager.query<Array<{ test_case_id: string }>>(
      ACTIVE_CASES,
      [organizationId, projectId],
    );
    return rows.map((row) => row.test_case_id);
  }

  /** Which of `testCaseIds` are in quarantine now. */
  async activeAmong(
    organizationId: string,
    projectId: string,
    testCaseIds: string[],
  ): Promise<Set<string>> {
    const rows = await this.transactions.manager.query<Array<{ test_case_id: string }>>(
      ACTIVE_AMONG,
      [organizationId, projectId, testCaseIds],
    );
    return new Set(rows.map((row) => row.test_case_id));
  }
}
