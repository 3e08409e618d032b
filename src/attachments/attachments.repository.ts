import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { AttachmentStatus } from './entities/attachment.entity.js';

/** An attachment as the statements return it (size as PostgreSQL's bigint text). */
export interface AttachmentRow {
  id: string;
  organization_id: string;
  test_run_id: string;
  result_id: string;
  test_case_id: string;
  configuration: string;
  name: string;
  content_type: string;
  size: string;
  sha256: string;
  status: AttachmentStatus;
  created_at: Date;
  updated_at: Date;
}

/** One attachment to insert, its slot already resolved to the current result. */
export interface NewAttachment {
  id: string;
  resultId: string;
  testCaseId: string;
  configuration: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  status: AttachmentStatus;
}

/** A slot named by an item: its case by id or automation id, and its configuration ('' none). */
export interface SlotName {
  testCaseId: string | null;
  automationId: string | null;
  configuration: string;
}

const COLUMNS = `a.id, a.organization_id, a.test_run_id, a.result_id, a.test_case_id,
  a.configuration, a.name, a.content_type, a.size, a.sha256, a.status, a.created_at, a.updated_at`;

/**
 * Each named slot's current result in the run, in the order named; `result_id` null for a slot
 * without one (an unknown case, another project's, or a case with no result in the run).
 */
const CURRENT_RESULTS = sql(
  'attachments.currentResults',
  `SELECT s.ord::int AS ord, trc.test_case_id, trc.result_id
   FROM unnest($4::uuid[], $5::text[], $6::text[]) WITH ORDINALITY AS s(case_id, automation_id, configuration, ord)
   LEFT JOIN test_case tc
     ON tc.organization_id = $1 AND tc.project_id = $3
    AND (tc.id = s.case_id OR (s.case_id IS NULL AND tc.automation_id = s.automation_id))
   LEFT JOIN test_run_case trc
     ON trc.test_run_id = $2 AND trc.test_case_id = tc.id AND trc.configuration = s.configuration
   ORDER BY s.ord`,
);

/**
 * Which of the contents (sha256, size) the organization stores already, each vouched for by one
 * stored attachment whose row this transaction then holds (`FOR KEY SHARE`) until it commits
 * the new attachments that share the content. Retention deletes an attachment's row before it
 * asks whether its content is still used, in one transaction: a row it has deleted makes this
 * wait and then look for another (none: the content must be uploaded again), and a row held
 * here makes retention's delete wait until the new attachment is there to keep the content.
 */
const STORED_CONTENTS = sql(
  'attachments.storedContents',
  `SELECT c.sha256, c.size
   FROM unnest($2::text[], $3::bigint[]) AS c(sha256, size)
   CROSS JOIN LATERAL (
     SELECT 1 FROM attachment a
      WHERE a.organization_id = $1 AND a.sha256 = c.sha256 AND a.size = c.size
        AND a.status = 'stored'
      LIMIT 1 FOR KEY SHARE
   ) AS vouched`,
);

/** One multi-row insert of a batch's attachments. */
const INSERT = sql(
  'attachments.insert',
  `INSERT INTO attachment
     (id, organization_id, test_run_id, result_id, test_case_id, configuration, name,
      content_type, size, sha256, status)
   SELECT i.id, $1, $2, i.result_id, i.test_case_id, i.configuration, i.name, i.content_type,
          i.size, i.sha256, i.status::attachment_status
   FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::text[],
               $9::bigint[], $10::text[], $11::text[])
     AS i(id, result_id, test_case_id, configuration, name, content_type, size, sha256, status)
   RETURNING ${COLUMNS.replaceAll('a.', '')}`,
);

/** The organization's attachments among `ids` (any organization's for the operator, null; any run when $3 is null). */
const FIND = sql(
  'attachments.find',
  `SELECT ${COLUMNS}
   FROM attachment a
   WHERE ($1::uuid IS NULL OR a.organization_id = $1) AND a.id = ANY($2::uuid[])
     AND ($3::uuid IS NULL OR a.test_run_id = $3)`,
);

/** An attachment by id alone: for a link whose signature names it (no organization to scope by). */
const FIND_LINKED = sql(
  'attachments.findLinked',
  `SELECT ${COLUMNS} FROM attachment a WHERE a.id = $1`,
);

/** Every pending attachment of the organization's content becomes stored: its bytes arrived. */
const MARK_CONTENT_STORED = sql(
  'attachments.markContentStored',
  `UPDATE attachment a SET status = 'stored', updated_at = now()
   WHERE a.organization_id = $1 AND a.sha256 = $2 AND a.size = $3 AND a.status = 'pending'`,
);

/** The stored attachments of results, in the order attached. */
const OF_RESULTS = sql(
  'attachments.ofResults',
  `SELECT a.result_id, a.id, a.name, a.content_type, a.size
   FROM attachment a
   WHERE a.organization_id = $1 AND a.result_id = ANY($2::uuid[]) AND a.status = 'stored'
   ORDER BY a.result_id, a.created_at, a.id`,
);

/** How many attachments each of the results has, pending or stored (results with none left out). */
const COUNT_OF_RESULTS = sql(
  'attachments.countOfResults',
  `SELECT a.result_id, count(*)::int AS attachments
   FROM attachment a
   WHERE a.organization_id = $1 AND a.result_id = ANY($2::uuid[])
   GROUP BY a.result_id`,
);

/** The secret of the service's own links: made once by whichever replica asks first. */
const SIGNING_KEY = sql(
  'attachments.signingKey',
  `WITH made AS (
     INSERT INTO url_signing_key (name, secret) VALUES ('attachments', $1)
     ON CONFLICT (name) DO NOTHING
     RETURNING secret
   )
   SELECT secret FROM made
   UNION ALL
   SELECT secret FROM url_signing_key WHERE name = 'attachments'`,
);

@Injectable()
export class AttachmentsRepository {
  constructor(private readonly transactions: Transactions) {}

  async currentResults(
    organizationId: string,
    run: { id: string; projectId: string },
    slots: SlotName[],
  ): Promise<Array<{ test_case_id: string | null; result_id: string | null }>> {
    return this.transactions.manager.query(CURRENT_RESULTS, [
      organizationId,
      run.id,
      run.projectId,
      slots.map((slot) => slot.testCaseId),
      slots.map((slot) => slot.automationId),
      slots.map((slot) => slot.configuration),
    ]);
  }

  /** How many attachments each of the results has (0 for none). */
  async countOfResults(organizationId: string, resultIds: string[]): Promise<Map<string, number>> {
    const rows = await this.transactions.manager.query<
      Array<{ result_id: string; attachments: number }>
    >(COUNT_OF_RESULTS, [organizationId, [...new Set(resultIds)]]);
    return new Map(rows.map((row) => [row.result_id, row.attachments]));
  }

  /** The keys `sha256:size` of the contents among `contents` that the organization stores. */
  async storedContents(
    organizationId: string,
    contents: Array<{ sha256: string; size: number }>,
  ): Promise<Set<string>> {
    const rows = await this.transactions.manager.query<Array<{ sha256: string; size: string }>>(
      STORED_CONTENTS,
      [organizationId, contents.map((c) => c.sha256), contents.map((c) => c.size)],
    );
    return new Set(rows.map((row) => `${row.sha256}:${row.size}`));
  }

  async insert(
    organizationId: string,
    testRunId: string,
    items: NewAttachment[],
  ): Promise<AttachmentRow[]> {
    return this.transactions.manager.query<AttachmentRow[]>(INSERT, [
      organizationId,
      testRunId,
      items.map((i) => i.id),
      items.map((i) => i.resultId),
      items.map((i) => i.testCaseId),
      items.map((i) => i.configuration),
      items.map((i) => i.name),
      items.map((i) => i.contentType),
      items.map((i) => i.size),
      items.map((i) => i.sha256),
      items.map((i) => i.status),
    ]);
  }

  find(
    organizationId: string | null,
    ids: string[],
    testRunId: string | null,
  ): Promise<AttachmentRow[]> {
    return this.transactions.manager.query<AttachmentRow[]>(FIND, [organizationId, ids, testRunId]);
  }

  async findLinked(id: string): Promise<AttachmentRow | null> {
    const rows = await this.transactions.manager.query<AttachmentRow[]>(FIND_LINKED, [id]);
    return rows[0] ?? null;
  }

  async markContentStored(organizationId: string, sha256: string, size: number): Promise<void> {
    await this.transactions.manager.query(MARK_CONTENT_STORED, [organizationId, sha256, size]);
  }

  ofResults(
    organizationId: string,
    resultIds: string[],
  ): Promise<
    Array<{ result_id: string; id: string; name: string; content_type: string; size: string }>
  > {
    return this.transactions.manager.query(OF_RESULTS, [organizationId, resultIds]);
  }

  async signingKey(): Promise<Buffer> {
    const rows = await this.transactions.outside.query<Array<{ secret: Buffer }>>(SIGNING_KEY, [
      randomBytes(32),
    ]);
    // Another replica made it in the same moment: its row is visible to a new statement.
    if (rows.length === 0) return this.signingKey();
    return rows[0].secret;
  }
}
