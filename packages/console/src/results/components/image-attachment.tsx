import { useState } from 'react';
import { Modal } from '../../shared/components/modal';
import type { ResultAttachment } from '../api/result-attachments';

/**
 * A screenshot in place, small; a click shows it at its own size in a dialog (Escape or Close
 * ends it), where it can also be opened alone in a new tab.
 */
export function ImageAttachment({ attachment }: { attachment: ResultAttachment }) {
  const [enlarged, setEnlarged] = useState(false);
  // The link it was first shown with (loaded at once, while it holds): a renewed link would
  // only load the same image again.
  const [shown] = useState(attachment.content_url);
  const titleId = `attachment-${attachment.id}-title`;
  return (
    <>
      <button type="button" className="thumbnail" onClick={() => setEnlarged(true)}>
        <img src={shown} alt={attachment.name} />
        <span className="visually-hidden">Enlarge {attachment.name}</span>
      </button>
      {enlarged ? (
        <Modal labelledBy={titleId} onClose={() => setEnlarged(false)}>
          <div className="image-view">
            <h2 id={titleId}>{attachment.name}</h2>
            <img src={shown} alt={attachment.name} />
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
