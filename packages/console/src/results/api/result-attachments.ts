import { queryOptions } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type ResultAttachment = components['schemas']['ResultAttachmentLinkResponse'];

/**
 * How long the page keeps a list of links before it asks for fresh ones: well inside the
 * 10 minutes a link lasts, so a link the page shows is never one the service refuses.
 */
const LINKS_FRESH_MS = 4 * 60_000;

/**
 * A result's attachments with signed links to their bytes
 * (`GET /internal/v1/results/{id}/attachments`), asked for again before the links expire.
 */
export const resultAttachments = (resultId: string) =>
  queryOptions({
    queryKey: ['result', resultId, 'attachments'],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/results/{id}/attachments', { params: { path: { id: resultId } } }),
      ),
    staleTime: LINKS_FRESH_MS,
    refetchInterval: LINKS_FRESH_MS,
  });

/** How much of a text attachment the page shows (the rest is one download away). */
export const TEXT_SHOWN_BYTES = 256 * 1024;

/** The first `TEXT_SHOWN_BYTES` of a text attachment, as UTF-8, and whether that is all of it. */
export interface TextStart {
  text: string;
  whole: boolean;
}

/**
 * Reads a text attachment's first 256 KB through its link and stops there (the rest of the
 * response is cancelled, not read): a 200 MB log costs the page 256 KB. A character cut at the
 * end is dropped, not shown as a replacement mark. The content of an attachment id never
 * changes, so it is read once.
 */
export const attachmentTextStart = (attachment: ResultAttachment) =>
  queryOptions({
    queryKey: ['attachment', attachment.id, 'text-start'],
    staleTime: Infinity,
    queryFn: async ({ signal }): Promise<TextStart> => {
      const response = await fetch(attachment.content_url, { signal });
      if (!response.ok || response.body === null) {
        throw new Error(`The service answered ${response.status}.`);
      }
      const reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      let read = 0;
      while (read < TEXT_SHOWN_BYTES) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        read += value.length;
      }
      const whole = read <= TEXT_SHOWN_BYTES && attachment.size <= TEXT_SHOWN_BYTES;
      if (!whole) await reader.cancel();
      const bytes = new Uint8Array(Math.min(read, TEXT_SHOWN_BYTES));
      let at = 0;
      for (const chunk of chunks) {
        const part = chunk.subarray(0, bytes.length - at);
        bytes.set(part, at);
        at += part.length;
      }
      // `stream: true` holds back a character cut at the end instead of marking it.
      const text = new TextDecoder('utf-8').decode(bytes, { stream: !whole });
      return { text, whole };
    },
  });
