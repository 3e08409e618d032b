import { FormError } from './form-error';

/** What a form shows of the call it makes: the service's refusal, and that it is under way. */
export interface Call {
  error: Error | null;
  isPending: boolean;
}

/** The submit button's words, and what it says while the call is under way. */
export interface Action {
  label: string;
  pending: string;
}

/**
 * A form's end: the service's refusal, then the submit button (disabled while the call is under
 * way or while `ready` is false) and, in a dialog, Cancel.
 */
export function FormFooter({
  call,
  action,
  ready = true,
  onCancel,
}: {
  call: Call;
  action: Action;
  ready?: boolean;
  onCancel?: () => void;
}) {
  return (
    <>
      <FormError error={call.error} />
      <div className="actions">
        <button type="submit" disabled={call.isPending || !ready}>
          {call.isPending ? action.pending : action.label}
        </button>
        {onCancel ? (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </>
  );
}
