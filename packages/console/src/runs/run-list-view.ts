import { filteredPageSearch } from '../shared/page-search';
import type { TestRunStatus } from './api/runs';
import { RUN_STATUS_NAMES } from './components/run-counts';

/** What a project's runs list shows, from its URL's search parameters. */
export interface RunListView {
  offset?: number;
  status?: TestRunStatus;
  /** Runs of this name only (exact). */
  name?: string;
  /** Runs whose build is on this branch only (exact). */
  branch?: string;
  /** Runs created on or after this day (UTC, `YYYY-MM-DD`). */
  from?: string;
  /** Runs created on or before this day (UTC, `YYYY-MM-DD`). */
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: unknown): value is string =>
  typeof value === 'string' && DAY.test(value) && !Number.isNaN(Date.parse(value));
const text = (value: unknown): string | undefined => {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed.length > 0 && trimmed.length <= 255 ? trimmed : undefined;
};

/** `?offset=`, `?status=`, `?name=`, `?branch=`, `?from=` and `?to=`; anything else is dropped. */
export function runListSearch(search: Record<string, unknown>): RunListView {
  const name = text(search.name);
  const branch = text(search.branch);
  return {
    ...filteredPageSearch<TestRunStatus>(RUN_STATUS_NAMES)(search),
    ...(name === undefined ? {} : { name }),
    ...(branch === undefined ? {} : { branch }),
    ...(isDay(search.from) ? { from: search.from } : {}),
    ...(isDay(search.to) ? { to: search.to } : {}),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The list's query as the API takes it: the days become the strict bounds `created_after` (the
 * last millisecond before `from`) and `created_before` (the midnight after `to`).
 */
export function runListQuery(view: RunListView) {
  return {
    ...(view.status === undefined ? {} : { status: view.status }),
    ...(view.name === undefined ? {} : { name: view.name }),
    ...(view.branch === undefined ? {} : { branch: view.branch }),
    ...(view.from === undefined
      ? {}
      : { created_after: new Date(Date.parse(view.from) - 1).toISOString() }),
    ...(view.to === undefined
      ? {}
      : { created_before: new Date(Date.parse(view.to) + DAY_MS).toISOString() }),
  };
}

/** The view's filters alone (no page), for links that keep them. */
export function runListFilters({ offset: _offset, ...filters }: RunListView): RunListView {
  return filters;
}
