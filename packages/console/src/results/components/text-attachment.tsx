import { useQuery } from '@tanstack/react-query';
import { bytes } from '../../shared/formats';
import {
  attachmentTextStart,
  TEXT_SHOWN_BYTES,
  type ResultAttachment,
} from '../api/result-attachments';

/** A log or other text: its first 256 KB as sent, monospace and wrapped; the rest a download away. */
export function TextAttachment({ attachment }: { attachment: ResultAttachment }) {
  const start = useQuery(attachmentTextStart(attachment));
  if (start.isPending) return <p className="muted">Reading {attachment.name}…</p>;
  if (start.isError) {
    return (
      <p role="alert" className="form-error">
        Could not read {attachment.name}: {start.error.message}
      </p>
    );
  }
  return (
    <>
      {start.data.whole ? null : (
        <p className="muted small-text" data-field="text-cut">
          The first {bytes(TEXT_SHOWN_BYTES)} of {bytes(attachment.size)}: download it for the rest.
        </p>
      )}
      <pre className="attachment-text" tabIndex={0} aria-label={`Text of ${attachment.name}`}>
        {start.data.text}
      </pre>
    </>
  );
}
