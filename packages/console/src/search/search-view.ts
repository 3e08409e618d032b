import { pageSearch } from '../shared/page-search';

/** The search pages' `?q=` (2–255 characters once trimmed; else none) and `?offset=`. */
export function searchPageSearch(search: Record<string, unknown>): { offset?: number; q?: string } {
  const q = typeof search.q === 'string' ? search.q.trim() : '';
  return q.length >= 2 && q.length <= 255 ? { ...pageSearch(search), q } : pageSearch(search);
}
