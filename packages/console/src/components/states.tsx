import type { ReactNode } from 'react';
import { ApiFailure } from '../api/client';

/** Shown while a page's data loads. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status">
      Loading {what}…
    </p>
  );
}

/** Shown when a list has nothing in it yet. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}

/** Shown when a page's data could not be read, with a way to try again. */
export function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const status = error instanceof ApiFailure ? ` (${error.status})` : '';
  return (
    <div className="state error" role="alert">
      <p>
        Could not load this page{status}: {error.message}
      </p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
