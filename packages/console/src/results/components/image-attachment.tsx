import { useState } from 'react';
import { Modal } from '../../shared/components/modal';
import type { ResultAttachment } from '../api/result-attachments';

/**
 * A screenshot in place, small; a click shows it at its own size in a dialog (Escape or Close
 * ends it), where it can also be opened alone in a new tab.
 */
export function ImageAttachment({ attachment }: { attachment: ResultAttachment }) {
  const [enlarged, setEnlarged] = useState(false);
  const titleId = `attachment-${attachment.id}-title`;
  return (
    <>
      <button type="button" className="thumbnail" onClick={() => setEnlarged(true)}>
        <img src={attachment.content_url} alt={attachment.name} loading="lazy" />
        <span className="visually-hidden">Enlarge {attachment.name}</span>
      </button>
      {enlarged ? (
        <Modal labelledBy={titleId} onClose={() => setEnlarged(false)}>
          <div className="image-view">
            <h2 id={titleId}>{attachment.name}</h2>
            <img src={attachment.content_url} alt={attachment.name} />
            <div className="actions">
              <a href={attachment.content_url} target="_blank" rel="noreferrer">
                Open the image alone
              </a>
              <button
                type="button"
                className="secondary"
                data-autofocus
                onClick={() => setEnlarged(false)}
              >
                Close
              </button>
            </div>
          </div>
        </Modal>
      ) : null}
    </>
  );
}
