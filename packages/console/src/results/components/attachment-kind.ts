import type { ResultAttachment } from '../api/result-attachments';

/**
 * How the page shows an attachment: an image in place (with a larger view), a video played, a
 * text's first bytes, a Playwright trace in the trace viewer, anything else as a download.
 */
export type AttachmentKind = 'image' | 'video' | 'text' | 'trace' | 'file';

/** The types the service serves for showing in place (CONTRACT §15); others are downloads. */
const IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const VIDEOS = new Set(['video/webm', 'video/mp4']);
/** Text that is not markup a browser would render: shown as text, never as a page. */
const TEXTS = new Set(['application/json', 'application/xml', 'application/x-ndjson']);
const ZIPS = new Set(['application/zip', 'application/x-zip-compressed']);

/** The media type alone, lower case: `text/plain; charset=utf-8` → `text/plain`. */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/**
 * A zip named as a trace is Playwright's (`trace.zip`, or `trace` as its JSON report names
 * it); a log sent without a type (`application/octet-stream`) is still a text by its name.
 */
export function kindOf(attachment: ResultAttachment): AttachmentKind {
  const type = mediaType(attachment.content_type);
  if (IMAGES.has(type)) return 'image';
  if (VIDEOS.has(type)) return 'video';
  if (ZIPS.has(type) && /trace/i.test(attachment.name)) return 'trace';
  if ((type.startsWith('text/') && type !== 'text/html') || TEXTS.has(type)) return 'text';
  if (type === 'application/octet-stream' && /\.(?:log|txt)$/i.test(attachment.name)) {
    return 'text';
  }
  return 'file';
}
