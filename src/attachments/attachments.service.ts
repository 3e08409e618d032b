import { Injectable } from '@nestjs/common';
import { type Caller, organizationOf } from '../common/caller.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { uuid7 } from '../common/uuid7.js';
import { Settings } from '../config/settings.js';
import { Transactions } from '../database/transactions.js';
import { TestRunLookup } from '../testruns/test-run-lookup.js';
import { AttachmentLinks, DOWNLOAD_LINK_SECONDS, UPLOAD_LINK_SECONDS } from './attachment-links.js';
import { toAttachmentResponse } from './attachment-response.js';
import {
  type AttachmentRow,
  AttachmentsRepository,
  type NewAttachment,
} from './attachments.repository.js';
import type { AttachmentItemDto, CreateAttachmentsDto } from './dto/create-attachments.dto.js';
import type { AttachmentResponse, AttachmentUploadResponse } from './dto/attachment.dto.js';
import { AttachmentStore, contentKey } from './storage/attachment-store.js';

/**
 * Attachments of results (CONTRACT §15): described in batches, each answered with where to
 * send its bytes unless the organization stores them already; completed once sent; read with
 * their result and through a short-lived signed link.
 */

/**
 * The most attachments one result holds (CONTRACT §15 leaves it open; "anything else invalid
 * is 400"): content already stored costs no upload, so without a bound one upload could be
 * attached to a result without end, and every list of the result's attachments (its results
 * page, the console's result page with a signed link each) would grow with it. A result's
 * screenshots, videos, traces and logs over its retries are a few dozen.
 */
export const ATTACHMENTS_PER_RESULT = 1_000;

@Injectable()
export class AttachmentsService {
  constructor(
    private readonly settings: Settings,
    private readonly transactions: Transactions,
    private readonly runs: TestRunLookup,
    private readonly attachments: AttachmentsRepository,
    private readonly links: AttachmentLinks,
    private readonly store: AttachmentStore,
  ) {}

  /** Adds the batch to the slots' current results, all or nothing, in the order sent. */
  async create(
    caller: Caller,
    runId: string,
    dto: CreateAttachmentsDto,
    origin: string,
  ): Promise<AttachmentResponse[]> {
    const { run, rows } = await this.transactions.run(async () => {
      const found = await this.runs.find(caller, runId);
      this.refuseOversized(dto.attachments);
      const slots = dto.attachments.map(slotOf);
      const run = await this.runs.lock(found.organizationId, found.id, 'shared');
      if (run.status === 'completed') {
        throw ApiError.conflict('test_run_completed', 'A completed test run takes no attachments.');
      }
      const results = await this.attachments.currentResults(run.organizationId, run, slots);
      const stored = await this.attachments.storedContents(run.organizationId, dto.attachments);
      const held = await this.attachments.countOfResults(
        run.organizationId,
        results.flatMap((r) => (r.result_id === null ? [] : [r.result_id])),
      );
      const items = dto.attachments.map((item, at): NewAttachment => {
        const { result_id: resultId, test_case_id: testCaseId } = results[at];
        const field = `attachments[${at}].${item.test_case_id ? 'test_case_id' : 'automation_id'}`;
        if (resultId === null || testCaseId === null) {
          throw ApiError.invalidField(field, `${field} names no result in this test run`);
        }
        const count = (held.get(resultId) ?? 0) + 1;
        if (count > ATTACHMENTS_PER_RESULT) {
          throw ApiError.invalidField(
            field,
            `${field} names a result that holds ${ATTACHMENTS_PER_RESULT} attachments, the most one result holds`,
          );
        }
        held.set(resultId, count);
        return {
          id: uuid7(),
          resultId,
          testCaseId,
          configuration: slots[at].configuration,
          name: item.name,
          contentType: item.content_type,
          size: item.size,
          sha256: item.sha256,
          status: stored.has(`${item.sha256}:${item.size}`) ? 'stored' : 'pending',
        };
      });
      const inserted = await this.attachments.insert(run.organizationId, run.id, items);
      const byId = new Map(inserted.map((row) => [row.id, row]));
      return { run, rows: items.map((item) => byId.get(item.id) as AttachmentRow) };
    });
    return Promise.all(
      rows.map(async (row) =>
        toAttachmentResponse(row, await this.uploadOf(run.organizationId, row, origin)),
      ),
    );
  }

  /**
   * Each attachment whose bytes are in the store becomes stored (with every other pending one
   * of the same content); the others stay pending, with a new upload link.
   */
  async complete(
    caller: Caller,
    runId: string,
    ids: string[],
    origin: string,
  ): Promise<AttachmentResponse[]> {
    const run = await this.runs.find(caller, runId);
    const rows = await this.findAll(run.organizationId, ids, run.id);
    for (const row of rows) {
      if (row.status !== 'pending') continue;
      const content = { sha256: row.sha256, size: Number(row.size) };
      if (await this.store.has(contentKey(row.organization_id, content), content.size)) {
        await this.attachments.markContentStored(row.organization_id, content.sha256, content.size);
      }
    }
    const now = await this.findAll(run.organizationId, ids, run.id);
    return Promise.all(
      now.map(async (row) =>
        toAttachmentResponse(row, await this.uploadOf(run.organizationId, row, origin)),
      ),
    );
  }

  async get(caller: Caller, id: string): Promise<AttachmentResponse> {
    return toAttachmentResponse(await this.find(caller, id));
  }

  /** A short-lived signed link to a stored attachment's bytes (404 while pending). */
  async contentLink(caller: Caller, id: string, origin: string): Promise<string> {
    const row = await this.find(caller, id);
    if (row.status !== 'stored') throw ApiError.notFound('attachment_content');
    return (await this.links.make(row.id, 'download', DOWNLOAD_LINK_SECONDS, origin)).url;
  }

  private async find(caller: Caller, id: string): Promise<AttachmentRow> {
    const [row] = await this.attachments.find(organizationOf(caller), [id], null);
    if (!row) throw ApiError.notFound('attachment');
    return row;
  }

  /** The run's attachments of `ids`, in that order; an id not among them is a 400 naming it. */
  private async findAll(
    organizationId: string,
    ids: string[],
    runId: string,
  ): Promise<AttachmentRow[]> {
    const byId = new Map(
      (await this.attachments.find(organizationId, ids, runId)).map((row) => [row.id, row]),
    );
    return ids.map((id, at) => {
      const row = byId.get(id);
      if (!row) throw ApiError.unknownReference(`ids[${at}]`);
      return row;
    });
  }

  private async uploadOf(
    organizationId: string,
    row: AttachmentRow,
    origin: string,
  ): Promise<AttachmentUploadResponse | null> {
    if (row.status !== 'pending') return null;
    const content = { sha256: row.sha256, size: Number(row.size) };
    const key = contentKey(organizationId, content);
    const direct = await this.store.directUpload(key, content, UPLOAD_LINK_SECONDS);
    if (direct !== null) {
      const expiresAt = new Date(Date.now() + UPLOAD_LINK_SECONDS * 1000);
      return { method: 'PUT', ...direct, expires_at: expiresAt.toISOString() };
    }
    const link = await this.links.make(row.id, 'upload', UPLOAD_LINK_SECONDS, origin);
    return {
      method: 'PUT',
      url: link.url,
      headers: { 'Content-Type': 'application/octet-stream' },
      expires_at: link.expiresAt.toISOString(),
    };
  }

  private refuseOversized(items: AttachmentItemDto[]): void {
    const limit = this.settings.attachments.maxBytes;
    const at = items.findIndex((item) => item.size > limit);
    if (at >= 0) {
      throw new ApiError(
        413,
        ErrorCode.PayloadTooLarge,
        `attachments[${at}].size is over the largest attachment, ${limit} bytes.`,
        { limit, field: `attachments[${at}].size` },
      );
    }
  }
}

/** The slot an item names; exactly one of its case's two names. */
function slotOf(item: AttachmentItemDto, at: number) {
  const byId = item.test_case_id !== undefined;
  if (byId === (item.automation_id !== undefined)) {
    const field = `attachments[${at}].automation_id`;
    throw ApiError.invalidField(field, `${field} or test_case_id (exactly one) must be given`);
  }
  return {
    testCaseId: item.test_case_id ?? null,
    automationId: item.automation_id ?? null,
    configuration: item.configuration ?? '',
  };
}
