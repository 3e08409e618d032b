import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { BodyBudget } from '../common/http/body-budget.js';
import { extValue } from '../common/http/ext-value.js';
import { AttachmentLinks, type LinkQuery } from './attachment-links.js';
import { toAttachmentResponse } from './attachment-response.js';
import { type AttachmentRow, AttachmentsRepository } from './attachments.repository.js';
import type { AttachmentResponse } from './dto/attachment.dto.js';
import { AttachmentStore, ContentMismatch, contentKey } from './storage/attachment-store.js';

/** Types a browser may show in place (CONTRACT §15); any other is served as a download. */
const SHOWN_INLINE = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'video/webm',
  'video/mp4',
  'text/plain',
]);

/**
 * The bytes of attachments through the service's own signed links: uploads streamed to the
 * store with their size and SHA-256 checked on the way (never held whole), downloads streamed
 * back with headers that keep any content from running in the service's origin.
 */
@Injectable()
export class AttachmentTransfersService {
  constructor(
    private readonly links: AttachmentLinks,
    private readonly attachments: AttachmentsRepository,
    private readonly store: AttachmentStore,
    private readonly budget: BodyBudget,
  ) {}

  /** Takes the attachment's bytes; they become visible only once whole and intact. */
  async upload(
    id: string,
    query: LinkQuery,
    req: Request,
    res: Response,
  ): Promise<AttachmentResponse> {
    const row = await this.linked(id, 'upload', query);
    const content = { sha256: row.sha256, size: Number(row.size) };
    const declared = req.get('content-length');
    if (declared !== undefined && Number(declared) !== content.size) throw mismatch('size');
    // What the store holds of one upload at most, never its size: the budget's 192 MiB default
    // lets 48 uploads stream to the filesystem at once; the next wait their turn, then 503.
    await this.budget.hold(res, this.store.writeMemory);
    try {
      // The body's chunks are read by nothing else: the store frees each once it is stored.
      const key = contentKey(row.organization_id, content);
      await this.store.write(key, req, content, { freeChunks: true });
    } catch (error) {
      if (error instanceof ContentMismatch) throw mismatch(error.field);
      // The client left (or the request timed out) before every byte arrived.
      if (req.destroyed && !req.complete) throw mismatch('size');
      throw error;
    }
    await this.attachments.markContentStored(row.organization_id, content.sha256, content.size);
    return toAttachmentResponse({ ...row, status: 'stored' });
  }

  /** Streams a stored attachment's bytes with its type and the headers that keep it inert. */
  async download(id: string, query: LinkQuery, res: Response): Promise<void> {
    const row = await this.linked(id, 'download', query);
    if (row.status !== 'stored') throw ApiError.notFound('attachment_content');
    const content = { sha256: row.sha256, size: Number(row.size) };
    const body = await this.store.read(contentKey(row.organization_id, content));
    res.status(200);
    res.setHeader('Content-Type', row.content_type);
    res.setHeader('Content-Length', String(content.size));
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.setHeader('Cache-Control', 'private, max-age=300');
    const type = row.content_type.split(';')[0].trim().toLowerCase();
    const disposition = SHOWN_INLINE.has(type) ? 'inline' : 'attachment';
    res.setHeader('Content-Disposition', `${disposition}; ${fileNameParameters(row.name)}`);
    await pipeline(body, res);
  }

  private async linked(id: string, action: 'upload' | 'download', query: LinkQuery) {
    if (!(await this.links.check(id, action, query))) {
      // The signature is the link's credential: a wrong or expired one is CONTRACT §2's 401.
      throw new ApiError(
        401,
        ErrorCode.Unauthorized,
        'The link’s signature does not match or it has expired: ask for a new link.',
        {},
        { 'WWW-Authenticate': 'Bearer' },
      );
    }
    const row: AttachmentRow | null = await this.attachments.findLinked(id);
    if (!row) throw ApiError.notFound('attachment');
    return row;
  }
}

function mismatch(field: 'size' | 'sha256'): ApiError {
  return ApiError.invalidField(field, `The bytes sent do not match the attachment's ${field}.`);
}

/** `filename` (ASCII, quotes and controls replaced) and `filename*` (UTF-8, RFC 8187). */
function fileNameParameters(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `filename="${ascii}"; filename*=UTF-8''${extValue(name)}`;
}
