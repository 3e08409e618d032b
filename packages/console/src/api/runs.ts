import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { components } from '../schema';
import { api, unwrap } from './client';

export type TestRun = components['schemas']['TestRunResponse'];
export type TestRunStatus = TestRun['status'];
export type RunCounts = components['schemas']['TestRunCounts'];
export type Result = components['schemas']['InternalResultResponse'];
export type ResultStatus = Result['status'];

const RUNS = 'runs';
const RESULTS = 'results';

/** A project's runs, newest first, of one status or all. */
export const projectRuns = (
  projectId: string,
  page: { limit: number; offset: number; status?: TestRunStatus },
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
 * A page of the run's current results, of one status or all, and only the cases whose title or
 * automation id contains `q` when given (the server searches).
 */
export const runResults = (
  runId: string,
  page: { limit: number; offset: number; status?: ResultStatus; q?: string },
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

/** `live`: events arrive; `connecting`: (re)opening; `stopped`: the browser gave up. */
export type LiveState = 'connecting' | 'live' | 'stopped';

/**
 * Follows the run's `GET …/live` stream while the page is open: each `run` event replaces the
 * cached run (so the counts change in place) and marks the run's results stale, so the table
 * shows new results too. The browser sends the session cookie itself (same origin).
 */
export function useLiveRun(id: string): { state: LiveState; reconnect: () => void } {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    setState('connecting');
    const source = new EventSource(`/internal/v1/testruns/${encodeURIComponent(id)}/live`);
    let last: string | null = null;
    source.onopen = () => setState('live');
    source.addEventListener('run', (event) => {
      const run = JSON.parse((event as MessageEvent<string>).data) as TestRun;
      setState('live');
      queryClient.setQueryData(testRun(id).queryKey, run);
      const counts = JSON.stringify(run.counts);
      if (last !== null && counts !== last) {
        void queryClient.invalidateQueries({ queryKey: [RESULTS, id] });
        void queryClient.invalidateQueries({ queryKey: [RUNS, 'of-project', run.project_id] });
      }
      last = counts;
    });
    source.onerror = () =>
      setState(source.readyState === EventSource.CLOSED ? 'stopped' : 'connecting');
    return () => source.close();
  }, [id, attempt, queryClient]);
  return { state, reconnect: () => setAttempt((n) => n + 1) };
}
