import { Injectable } from '@nestjs/common';
import { AttachmentsRepository } from './attachments.repository.js';
import type { ResultAttachmentResponse } from './dto/attachment.dto.js';

/** What results' readers may ask of attachments: each result's stored ones. */
@Injectable()
export class ResultAttachments {
  constructor(private readonly attachments: AttachmentsRepository) {}

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
}
