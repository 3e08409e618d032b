import { Injectable } from '@nestjs/common';
import { AttachmentLinks, DOWNLOAD_LINK_SECONDS } from './attachment-links.js';
import { AttachmentsRepository } from './attachments.repository.js';
import type {
  ResultAttachmentLinkResponse,
  ResultAttachmentResponse,
} from './dto/attachment.dto.js';

/** What results' readers may ask of attachments: each result's stored ones, and their links. */
@Injectable()
export class ResultAttachments {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly links: AttachmentLinks,
  ) {}

  /** The stored attachments of each result, in the order attached (an empty list for none). */
  async of(
    organizationId: string,
    resultIds: string[],
  ): Promise<Map<string, ResultAttachmentResponse[]>> {
    const lists = new Map<string, ResultAttachmentResponse[]>(resultIds.map((id) => [id, []]));
    if (resultIds.length === 0) return lists;
    for (const row of await this.attachments.ofResults(organizationId, resultIds)) {
      lists.get(row.result_id)?.push({
        id: row.id,
        name: row.name,
        content_type: row.content_type,
        size: Number(row.size),
      });
    }
    return lists;
  }

  /**
   * One result's stored attachments, each with a fresh signed link to its bytes (the console's
   * result page shows them from it: an image in place, a video played, a log's first bytes, a
   * trace in the trace viewer). The result's organization scopes the look-up, so a result id
   * never reaches another organization's attachments.
   */
  async withLinks(
    organizationId: string,
    resultId: string,
    origin: string,
  ): Promise<ResultAttachmentLinkResponse[]> {
    const attached = (await this.of(organizationId, [resultId])).get(resultId) ?? [];
    return Promise.all(
      attached.map(async (attachment) => {
        const link = await this.links.make(
          attachment.id,
          'download',
          DOWNLOAD_LINK_SECONDS,
          origin,
        );
        return {
          ...attachment,
          content_url: link.url,
          content_expires_at: link.expiresAt.toISOString(),
        };
      }),
    );
  }
}
