import { Injectable } from '@nestjs/common';
import { sql } from '../../database/sql.js';
import { Transactions } from '../../database/transactions.js';

/** A content of an organization, as a deletion returns it. */
export interface ContentRow {
  organization_id: string;
  sha256: string;
  size: string;
}

/**
 * Deletes a batch of attachments older than $1 days, returning their contents. Rows another
 * replica's sweep holds are skipped, so replicas sweeping at once delete each row once.
 */
const DELETE_EXPIRED = sql(
  'attachmentRetention.deleteExpired',
  `DELETE FROM attachment a
   WHERE a.id IN (
     SELECT e.id FROM attachment e
     WHERE e.created_at < now() - make_interval(days => $1)
     ORDER BY e.created_at
     LIMIT $2
     FOR UPDATE SKIP LOCKED
   )
   RETURNING a.organization_id, a.sha256, a.size`,
);

/**
 * The contents of attachments still pending after $1 hours (an upload never completed) that
 * no stored attachment shares: a batch of them, oldest first, after $2.
 */
const ABANDONED_CONTENTS = sql(
  'attachmentRetention.abandonedContents',
  `SELECT DISTINCT p.organization_id, p.sha256, p.size
   FROM attachment p
   WHERE p.status = 'pending' AND p.updated_at < now() - make_interval(hours => $1)
     AND NOT EXISTS (
       SELECT 1 FROM attachment s
       WHERE s.organization_id = p.organization_id AND s.sha256 = p.sha256 AND s.size = p.size
         AND s.status = 'stored'
     )
   LIMIT $2`,
);

/** Pending attachments of those contents, abandoned: deleted with them. */
const DELETE_ABANDONED = sql(
  'attachmentRetention.deleteAbandoned',
  `DELETE FROM attachment a
   USING unnest($1::uuid[], $2::text[], $3::bigint[]) AS c(organization_id, sha256, size)
   WHERE a.organization_id = c.organization_id AND a.sha256 = c.sha256 AND a.size = c.size
     AND a.status = 'pending' AND a.updated_at < now() - make_interval(hours => $4)`,
);

/** Deletes the attachments of runs about to be deleted ($1), returning their contents. */
const DELETE_OF_RUNS = sql(
  'attachmentRetention.deleteOfRuns',
  `DELETE FROM attachment a WHERE a.test_run_id = ANY($1::uuid[])
   RETURNING a.organization_id, a.sha256, a.size`,
);

/** Which of the contents an attachment still uses. */
const CONTENTS_IN_USE = sql(
  'attachmentRetention.contentsInUse',
  `SELECT DISTINCT a.organization_id, a.sha256, a.size
   FROM attachment a
   JOIN unnest($1::uuid[], $2::text[], $3::bigint[]) AS c(organization_id, sha256, size)
     ON a.organization_id = c.organization_id AND a.sha256 = c.sha256 AND a.size = c.size`,
);

@Injectable()
export class RetentionRepository {
  constructor(private readonly transactions: Transactions) {}

  async deleteExpired(days: number, limit: number): Promise<ContentRow[]> {
    const [rows] = await this.transactions.manager.query<[ContentRow[], number]>(DELETE_EXPIRED, [
      days,
      limit,
    ]);
    return rows;
  }

  async deleteOfRuns(runIds: string[]): Promise<ContentRow[]> {
    const [rows] = await this.transactions.manager.query<[ContentRow[], number]>(DELETE_OF_RUNS, [
      runIds,
    ]);
    return rows;
  }

  abandonedContents(hours: number, limit: number): Promise<ContentRow[]> {
    return this.transactions.manager.query<ContentRow[]>(ABANDONED_CONTENTS, [hours, limit]);
  }

  async deleteAbandoned(contents: ContentRow[], hours: number): Promise<void> {
    await this.transactions.manager.query(DELETE_ABANDONED, [...columns(contents), hours]);
  }

  async contentsInUse(contents: ContentRow[]): Promise<Set<string>> {
    const rows = await this.transactions.manager.query<ContentRow[]>(
      CONTENTS_IN_USE,
      columns(contents),
    );
    return new Set(rows.map(contentId));
  }
}

export function contentId(row: ContentRow): string {
  return `${row.organization_id}/${row.sha256}-${row.size}`;
}

function columns(contents: ContentRow[]): [string[], string[], string[]] {
  return [
    contents.map((c) => c.organization_id),
    contents.map((c) => c.sha256),
    contents.map((c) => c.size),
  ];
}
