import { useState, type FormEvent, type ReactNode } from 'react';
import { FormError } from './form-error';
import { FormFooter, type Action, type Call } from './form-footer';
import { Modal } from './modal';

/**
 * A form in a modal dialog: its fields, the service's refusal, then the submitting button and
 * Cancel. Enter submits; `ready` false keeps the button disabled (nothing to submit yet).
 */
export function FormDialog({
  titleId,
  title,
  intro,
  labelForm = false,
  call,
  action,
  ready = true,
  onSubmit,
  onClose,
  children,
}: {
  titleId: string;
  title: ReactNode;
  intro?: ReactNode;
  /** Names the form by the title, which makes it a form landmark. */
  labelForm?: boolean;
  call: Call;
  action: Action;
  ready?: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {intro}
      <form onSubmit={submit} className="form" aria-labelledby={labelForm ? titleId : undefined}>
        {children}
        <FormFooter call={call} action={action} ready={ready} onCancel={onClose} />
      </form>
    </Modal>
  );
}

/**
 * A question before a step that cannot be taken back: what it does, the service's refusal, the
 * confirming button and Cancel, which has the focus first.
 */
export function ConfirmDialog({
  titleId,
  title,
  call,
  action,
  danger = false,
  onConfirm,
  onClose,
  children,
}: {
  titleId: string;
  title: ReactNode;
  call: Call;
  action: Action;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <FormError error={call.error} />
      <div className="actions">
        <button
          type="button"
          className={danger ? 'danger' : undefined}
          disabled={call.isPending}
          onClick={onConfirm}
        >
          {call.isPending ? action.pending : action.label}
        </button>
        <button type="button" className="secondary" onClick={onClose} data-autofocus>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

/**
 * A secret the service shows once (a new API key, a webhook's signing secret): the warning, the
 * value, a copy button, and closing once it is stored.
 */
export function ShownOnceDialog({
  titleId,
  title,
  intro,
  warning,
  value,
  valueLabel,
  noun,
  onClose,
}: {
  titleId: string;
  title: ReactNode;
  intro?: ReactNode;
  warning: ReactNode;
  value: string;
  /** The value's accessible name, e.g. "The new API key". */
  valueLabel: string;
  /** What the value is called in the buttons and hints: "key", "secret". */
  noun: string;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <Modal labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {intro}
      <p className="warning" role="alert">
        {warning}
      </p>
      <p>
        <code className="secret" aria-label={valueLabel}>
          {value}
        </code>
      </p>
      <p role="status" className="muted">
        {copied === 'yes' ? 'Copied to the clipboard.' : ''}
        {copied === 'failed' ? `Could not copy: select the ${noun} and copy it by hand.` : ''}
      </p>
      <div className="actions">
        <button type="button" onClick={copy} data-autofocus>
          Copy {noun}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          I have stored it, close
        </button>
      </div>
    </Modal>
  );
}
