import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type TestRun = components['schemas']['TestRunResponse'];
export type TestRunStatus = TestRun['status'];
export type RunCounts = components['schemas']['TestRunCounts'];
export type Result = components['schemas']['InternalResultResponse'];
export type ResultStatus = Result['status'];
export type Attempt = Result['attempts'][number];
/** How a page of results is ordered (the service orders it). */
export type ResultOrder = 'newest_first' | 'failures_first';
export type RunConfiguration = components['schemas']['RunConfigurationsResponse']['data'][number];
/** A run as the project's runs list shows it: with its build, duration, pass rate, configurations. */
export type RunListItem = components['schemas']['TestRunListItemResponse'];
type RunsPage = { data: RunListItem[]; pagination: components['schemas']['PaginationMeta'] };

const RUNS = 'runs';
const RESULTS = 'results';

/**
 * A project's runs, newest first, each with its build's context, filtered by status, name,
 * branch and creation time (`runListQuery` makes them from the page's URL).
 */
export const projectRuns = (
  projectId: string,
  page: {
    limit: number;
    offset: number;
    status?: TestRunStatus;
    name?: string;
    branch?: string;
    created_after?: string;
    created_before?: string;
  },
) =>
  queryOptions({
    queryKey: [RUNS, 'of-project', projectId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/testruns', {
          params: { path: { id: projectId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const testRun = (id: string) =>
  queryOptions({
    queryKey: [RUNS, 'one', id],
    queryFn: () => unwrap(api.GET('/internal/v1/testruns/{id}', { params: { path: { id } } })),
  });

/**
 * A page of the run's current results, of one status or all, in one configuration or all ('':
 * those without one), and only the cases whose title or automation id contains `q` when given
 * (the server searches), newest first or failures first (`order`).
 */
export const runResults = (
  runId: string,
  page: {
    limit: number;
    offset: number;
    status?: ResultStatus;
    configuration?: string;
    q?: string;
    order?: ResultOrder;
  },
) =>
  queryOptions({
    queryKey: [RESULTS, runId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/testruns/{id}/results', {
          params: { path: { id: runId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/**
 * The configurations of the run's current results (null: results without one) and how many
 * each has, for the results' filter. Under the results' key: stale when new results arrive.
 */
export const runConfigurations = (runId: string) =>
  queryOptions({
    queryKey: [RESULTS, runId, 'configurations'],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/testruns/{id}/configurations', { params: { path: { id: runId } } }),
      ),
    placeholderData: keepPreviousData,
  });

/**
 * `live`: events arrive; `connecting`: (re)opening; `stopped`: the browser gave up; `final`:
 * nothing to follow (a completed run changes no more).
 */
export type LiveState = 'connecting' | 'live' | 'stopped' | 'final';

/**
 * Follows a `GET …/live` stream of `run` events while the page is open (the browser sends the
 * session cookie itself: same origin). `opened` runs each time the stream opens, after a
 * reconnection too (what changed meanwhile was not sent); `changed` for each run. No `url`,
 * no stream.
 */
function useRunStream(
  url: string | null,
  opened: () => void,
  changed: (run: TestRun) => void,
): { state: LiveState; reconnect: () => void } {
  const [state, setState] = useState<LiveState>('connecting');
  const [attempt, setAttempt] = useState(0);
  const handlers = useRef({ opened, changed });
  handlers.current = { opened, changed };
  useEffect(() => {
    if (url === null) {
      setState('final');
      return;
    }
    setState('connecting');
    const source = new EventSource(url);
    source.onopen = () => {
      setState('live');
      handlers.current.opened();
    };
    source.addEventListener('run', (event) => {
      setState('live');
      handlers.current.changed(JSON.parse((event as MessageEvent<string>).data) as TestRun);
    });
    source.onerror = () =>
      setState(source.readyState === EventSource.CLOSED ? 'stopped' : 'connecting');
    return () => source.close();
  }, [url, attempt]);
  return { state, reconnect: () => setAttempt((n) => n + 1) };
}

/**
 * Follows the run's `GET …/live` stream while the page is open: each `run` event replaces the
 * cached run (so the counts change in place) and marks the run's results stale, so the table
 * shows new results too. Not while `following` is false (the run is completed).
 */
export function useLiveRun(
  id: string,
  following: boolean,
): { state: LiveState; reconnect: () => void } {
  const queryClient = useQueryClient();
  return useRunStream(
    following ? `/internal/v1/testruns/${encodeURIComponent(id)}/live` : null,
    () => undefined,
    (run) => {
      // The stream sends the run at once, then after each change: the results are stale
      // whenever its counts differ from the ones the page shows (results that came between the
      // page's first read and the stream's opening included).
      const shown = queryClient.getQueryData(testRun(id).queryKey)?.counts;
      queryClient.setQueryData(testRun(id).queryKey, run);
      if (JSON.stringify(run.counts) !== JSON.stringify(shown)) {
        void queryClient.invalidateQueries({ queryKey: [RESULTS, id] });
        void queryClient.invalidateQueries({ queryKey: [RUNS, 'of-project', run.project_id] });
      }
    },
  );
}

/**
 * Follows the project's `GET …/testruns/live` stream while its runs page is open: a run on a
 * cached page is replaced in place (its counts and status change without a reload), then the
 * lists are read again for what the service derives from them (pass rate, duration); a run on
 * no cached page (a new one), or one that left a page's status filter, makes the lists read
 * again. Each (re)opening reads them again too.
 */
export function useLiveProjectRuns(projectId: string): { state: LiveState; reconnect: () => void } {
  const queryClient = useQueryClient();
  const lists = [RUNS, 'of-project', projectId];
  return useRunStream(
    `/internal/v1/projects/${encodeURIComponent(projectId)}/testruns/live`,
    () => void queryClient.invalidateQueries({ queryKey: lists }),
    (run) => {
      // In place where a cached page shows the run and still would; the lists read again.
      for (const [key, page] of queryClient.getQueriesData<RunsPage>({ queryKey: lists })) {
        if (!page?.data.some((row) => row.id === run.id)) continue;
        const status = (key[3] as { status?: TestRunStatus } | undefined)?.status;
        if (status !== undefined && status !== run.status) continue;
        const data = page.data.map((row) => (row.id === run.id ? { ...row, ...run } : row));
        queryClient.setQueryData<RunsPage>(key, { ...page, data });
      }
      void queryClient.invalidateQueries({ queryKey: lists });
    },
  );
}
