import { Injectable } from '@nestjs/common';
import { Settings } from '../config/settings.js';
import { AttachmentsRepository } from './attachments.repository.js';
import { type LinkAction, linkIsValid, signLink } from './link-signatures.js';

/** How long an upload link lasts (CONTRACT §15: at least 15 minutes). */
export const UPLOAD_LINK_SECONDS = 60 * 60;
/** How long a download link lasts (CONTRACT §15: at least 5 minutes). */
export const DOWNLOAD_LINK_SECONDS = 10 * 60;

/** A link's query, as the route receives it. */
export interface LinkQuery {
  expires?: unknown;
  signature?: unknown;
}

/**
 * The service's own links to an attachment's upload and download routes, signed with the key
 * every replica shares (`url_signing_key`), and their check.
 */
@Injectable()
export class AttachmentLinks {
  private secret: Promise<Buffer> | null = null;

  constructor(
    private readonly settings: Settings,
    private readonly attachments: AttachmentsRepository,
  ) {}

  /** A link to `action` the attachment until `lifetimeSeconds` from now; `origin` when no `PUBLIC_URL`. */
  async make(
    attachmentId: string,
    action: LinkAction,
    lifetimeSeconds: number,
    origin: string,
  ): Promise<{ url: string; expiresAt: Date }> {
    const expires = Math.floor(Date.now() / 1000) + lifetimeSeconds;
    const signature = signLink(await this.key(), { attachmentId, action, expires });
    const base = this.settings.attachments.publicUrl ?? origin;
    return {
      url: `${base}/api/v1/attachments/${attachmentId}/${action}?expires=${expires}&signature=${signature}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  /** Whether the query signs `action` of the attachment and has not expired. */
  async check(attachmentId: string, action: LinkAction, query: LinkQuery): Promise<boolean> {
    const { expires, signature } = query;
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
    if (typeof signature !== 'string') return false;
    const link = { attachmentId, action, expires: Number(expires) };
    return linkIsValid(await this.key(), link, signature, Math.floor(Date.now() / 1000));
  }

  private key(): Promise<Buffer> {
    this.secret ??= this.attachments.signingKey().catch((error: unknown) => {
      this.secret = null;
      throw error;
    });
    return this.secret;
  }
}
