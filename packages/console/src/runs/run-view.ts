import { filteredPageSearch } from '../shared/page-search';
import type { ResultOrder, ResultStatus } from './api/runs';
import { RESULT_STATUS_NAMES } from './components/run-counts';

/** The run page's sections, each a tab whose name is in the URL (`?tab=`; none: results). */
export const RUN_TABS = {
  results: 'Results',
  failures: 'Failures',
  comparison: 'Compared with baseline',
} as const;
export type RunTab = keyof typeof RUN_TABS;

/** How the results tab orders them (`?order=`; none: failures first). */
export const RESULT_ORDERS: Record<ResultOrder, string> = {
  failures_first: 'Failures first',
  newest_first: 'Newest first',
};

/** What the run page shows, from its URL's search parameters. */
export interface RunView {
  tab: RunTab;
  offset: number;
  status?: ResultStatus;
  /** Results in this configuration only; '': those without one. */
  configuration?: string;
  q?: string;
  /** None: failures first. */
  order?: ResultOrder;
}

/**
 * The run page's `?tab=`, `?offset=`, `?status=`, `?configuration=` (as the API takes it: empty
 * for results without one), `?q=` (a search of 1–255 characters) and `?order=` (only
 * `newest_first`: failures first is the default, left out of the URL).
 */
export function runSearch(search: Record<string, unknown>): Partial<RunView> {
  const { offset, status } = filteredPageSearch<ResultStatus>(RESULT_STATUS_NAMES)(search);
  const tab = search.tab;
  const order = search.order === 'newest_first' ? ({ order: 'newest_first' } as const) : {};
  const q = typeof search.q === 'string' ? search.q.trim() : '';
  const configuration =
    typeof search.configuration === 'string' ? search.configuration.trim() : undefined;
  return {
    ...(typeof tab === 'string' && tab !== 'results' && Object.hasOwn(RUN_TABS, tab)
      ? { tab: tab as RunTab }
      : {}),
    ...(offset === undefined ? {} : { offset }),
    ...(status === undefined ? {} : { status }),
    ...(configuration !== undefined && configuration.length <= 100 ? { configuration } : {}),
    ...(q.length > 0 && q.length <= 255 ? { q } : {}),
    ...order,
  };
}
