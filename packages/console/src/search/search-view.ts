import { pageSearch } from '../shared/page-search';

/** The search pages' `?q=` (2–255 characters once trimmed; else none) and `?offset=`. */
export function searchPageSearch(search: Record<string, unknown>): { offset?: number; q?: string } {
  const q = typeof search.q === 'string' ? search.q.trim() : '';
  return q.length >= 2 && q.length <= 255 ? { ...pageSearch(search), q } : pageSearch(search);
}

/** How many of the latest runs the failure search may read: its cost's bound, in the URL. */
export const SEARCHED_RUNS = [10, 30, 100] as const;
export type SearchedRuns = (typeof SEARCHED_RUNS)[number];

/** `searchPageSearch` and `?runs=` (one of `SEARCHED_RUNS`; none: the first, 10). */
export function failureSearchPageSearch(search: Record<string, unknown>): {
  offset?: number;
  q?: string;
  runs?: SearchedRuns;
} {
  const runs = Number(search.runs);
  return (SEARCHED_RUNS as readonly number[]).includes(runs) && runs !== SEARCHED_RUNS[0]
    ? { ...searchPageSearch(search), runs: runs as SearchedRuns }
    : searchPageSearch(search);
}
