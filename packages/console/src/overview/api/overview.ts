import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type OverviewRun = components['schemas']['OverviewRun'];
export type RunSeries = components['schemas']['RunSeries'];
export type RecurringFailure = components['schemas']['RecurringFailure'];

/** A run name, and a branch (none: every branch): what a trend follows. */
export interface Series {
  name: string;
  branch?: string;
}

/** How many of a series' latest runs the trends show. */
export const TREND_RUNS = 30;
/** How many of the latest runs the recurring failures are looked for in. */
export const RECURRING_RUNS = 10;

const OVERVIEW = 'overview';

/** The latest run of each of the project's run names, and the series a trend can follow. */
export const projectOverview = (projectId: string) =>
  queryOptions({
    queryKey: [OVERVIEW, projectId, 'latest'],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/overview', { params: { path: { id: projectId } } }),
      ),
  });

/** A series' latest submitted or completed runs, oldest first. */
export const overviewTrend = (projectId: string, series: Series) =>
  queryOptions({
    queryKey: [OVERVIEW, projectId, 'trend', series],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/overview/trend', {
          params: { path: { id: projectId }, query: { ...series, runs: TREND_RUNS } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The causes of failure seen in two or more of a series' latest runs. */
export const recurringFailures = (projectId: string, series: Series) =>
  queryOptions({
    queryKey: [OVERVIEW, projectId, 'recurring', series],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/overview/recurring-failures', {
          params: { path: { id: projectId }, query: { ...series, runs: RECURRING_RUNS } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
