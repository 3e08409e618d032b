import { Link } from '@tanstack/react-router';
import type { UseQueryResult } from '@tanstack/react-query';
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

/** Shown when the page names something that does not exist (the API answered 404). */
export function Missing({ children }: { children: ReactNode }) {
  return (
    <p className="state" role="alert">
      {children}
    </p>
  );
}

/**
 * What a page past the last one says (an old shared link): where the list ends, and the way to
 * its first page. `to`, `params` and `search` are the list's route, as the `Pager` takes them.
 */
export function PastLast({
  children,
  to,
  params,
  search,
}: {
  children: ReactNode;
  to: string;
  params?: Record<string, string>;
  search?: Record<string, string>;
}) {
  return (
    <>
      <p>{children}</p>
      <Link to={to} params={params} search={search}>
        Go to the first page
      </Link>
    </>
  );
}

/** What a paged list says instead of its rows. */
export interface ListTexts {
  /** The loading line's object, e.g. "projects". */
  what: string;
  /** Said for a 404: the list's parent does not exist. Without it a 404 is a load error. */
  missing?: ReactNode;
  /** The first page has no rows. */
  empty: ReactNode;
  /** A page past the last one (an old shared link). */
  pastLast: ReactNode;
}

/**
 * A paged list's state when it has no rows to show (loading, no such parent, an error, empty,
 * past the last page), or null when it does: every list page answers these alike.
 */
export function listState(
  page: UseQueryResult<{ data: unknown[] }>,
  offset: number,
  texts: ListTexts,
): ReactNode {
  if (page.isPending) return <Loading what={texts.what} />;
  if (page.isError) {
    if (
      texts.missing !== undefined &&
      page.error instanceof ApiFailure &&
      page.error.status === 404
    )
      return <Missing>{texts.missing}</Missing>;
    return <LoadError error={page.error} onRetry={() => void page.refetch()} />;
  }
  if (page.data.data.length > 0) return null;
  return <Empty>{offset === 0 ? texts.empty : texts.pastLast}</Empty>;
}
