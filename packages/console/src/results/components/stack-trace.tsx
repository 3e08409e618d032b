import { useState } from 'react';

/**
 * A stack trace as sent: monospace, wrapped (no sideways scroll), with a button that copies it
 * whole and says whether it could.
 */
export function StackTrace({ trace, label }: { trace: string; label: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(trace).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <div className="stack-trace">
      <div className="actions">
        <button type="button" className="secondary small" onClick={() => void copy()}>
          Copy<span className="visually-hidden"> {label}</span>
        </button>
        <span role="status" className="muted small-text">
          {copied === 'yes' ? 'Copied to the clipboard.' : ''}
          {copied === 'failed' ? 'Could not copy: select the text and copy it by hand.' : ''}
        </span>
      </div>
      <pre tabIndex={0} aria-label={label}>
        {trace}
      </pre>
    </div>
  );
}
