import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CONSOLE_BASE } from '../../shared/console-base';
import { bytes } from '../../shared/formats';
import { resultAttachments, type ResultAttachment } from '../api/result-attachments';
import { kindOf, mediaType } from './attachment-kind';
import { ImageAttachment } from './image-attachment';
import { TextAttachment } from './text-attachment';

/** Playwright's trace viewer, served by the service beside the console (`/console/trace/`). */
function traceViewerLink(attachment: ResultAttachment): string {
  return `${CONSOLE_BASE}/trace/index.html?trace=${encodeURIComponent(attachment.content_url)}`;
}

/**
 * What the pipeline attached to the result, beside its failure: screenshots in place, videos
 * to play, logs' first bytes, traces in Playwright's trace viewer, and every one of them as a
 * download, with its name, type and size.
 */
export function AttachmentsSection({ resultId }: { resultId: string }) {
  const attachments = useQuery(resultAttachments(resultId));
  return (
    <section aria-labelledby="attachments-title">
      <h2 id="attachments-title" className="section">
        Attachments
      </h2>
      {attachments.isPending ? <p className="muted">Loading the attachments…</p> : null}
      {attachments.isError ? (
        <p role="alert" className="form-error">
          Could not load the attachments: {attachments.error.message}
        </p>
      ) : null}
      {attachments.isSuccess && attachments.data.data.length === 0 ? (
        <p className="muted">Nothing was attached to this result.</p>
      ) : null}
      {attachments.isSuccess && attachments.data.data.length > 0 ? (
        <ul className="attachments">
          {attachments.data.data.map((attachment) => (
            <AttachmentItem key={attachment.id} attachment={attachment} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * One attachment. Its links are renewed every few minutes; a video keeps the link it started
 * with (its bytes are loaded already), so a renewal never restarts one being watched.
 */
function AttachmentItem({ attachment }: { attachment: ResultAttachment }) {
  const kind = kindOf(attachment);
  const [playing] = useState(attachment.content_url);
  return (
    <li className={`attachment kind-${kind}`} data-attachment={attachment.name}>
      <div className="attachment-head">
        <strong className="attachment-name">{attachment.name}</strong>
        <span className="muted small-text">
          <code>{mediaType(attachment.content_type)}</code> · {bytes(attachment.size)}
        </span>
      </div>
      {kind === 'image' ? <ImageAttachment attachment={attachment} /> : null}
      {kind === 'video' ? (
        <video controls preload="metadata" src={playing}>
          <a href={attachment.content_url} download={attachment.name}>
            Download {attachment.name}
          </a>
        </video>
      ) : null}
      {kind === 'text' ? <TextAttachment attachment={attachment} /> : null}
      {kind === 'trace' ? (
        <p className="muted small-text">
          Playwright’s trace: every step of the test, with the page before and after it, its console
          and its network.
        </p>
      ) : null}
      <p className="attachment-actions">
        {kind === 'trace' ? (
          <a className="button" href={traceViewerLink(attachment)} target="_blank" rel="noreferrer">
            Open in the trace viewer<span className="visually-hidden"> ({attachment.name})</span>
          </a>
        ) : null}
        <a href={attachment.content_url} download={attachment.name}>
          Download<span className="visually-hidden"> {attachment.name}</span>
        </a>
      </p>
    </li>
  );
}
