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

/** What a page says while the thing it shows is not there to show. */
export interface ReadTexts {
  /** The loading line's object, e.g. "the test run". */
  what: string;
  /** Said for a 404: the thing does not exist. Without it a 404 is a load error. */
  missing?: ReactNode;
  /** Shown above `missing`: the way out of a page whose thing does not exist. */
  back?: ReactNode;
}

/** What a paged list says instead of its rows. */
export interface ListTexts extends ReadTexts {
  /** The first page has no rows. */
  empty: ReactNode;
  /** A page past the last one (an old shared link). */
  pastLast: ReactNode;
}

/**
 * A read's state while it has no data (loading, no such thing, an error), or null once it has:
 * every page answers these alike.
 */
export function readState(query: UseQueryResult, texts: ReadTexts): ReactNode {
  if (query.isPending) return <Loading what={texts.what} />;
  if (!query.isError) return null;
  if (
    texts.missing !== undefined &&
    query.error instanceof ApiFailure &&
    query.error.status === 404
  )
    return (
      <>
        {texts.back === undefined ? null : <p>{texts.back}</p>}
        <Missing>{texts.missing}</Missing>
      </>
    );
  return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
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
  if (!page.isSuccess) return readState(page, texts);
  if (page.data.data.length > 0) return null;
  return <Empty>{offset === 0 ? texts.empty : texts.pastLast}</Empty>;
}
