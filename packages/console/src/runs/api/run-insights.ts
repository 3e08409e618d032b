import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';
import { testRun, type TestRunStatus } from './runs';
import { useSubmissionKey } from '../../shared/api/submissions';

export type FailureGroup = components['schemas']['InternalFailureGroupResponse'];
export type Comparison = components['schemas']['ComparisonResponse'];
export type ComparisonItem = components['schemas']['ComparisonItem'];
export type Gate = components['schemas']['GateResponse'];
export type ResultItem = components['schemas']['ResultItemDto'];

/*
 * Keys start with the run's results key (`['results', runId]`): when the live stream says the
 * counts changed (`useLiveRun`), the failures, the comparison and the gate are marked stale
 * with the results.
 */
const RESULTS = 'results';

/** A page of the run's failures grouped by signature, largest group first. */
export const runFailures = (runId: string, page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [RESULTS, runId, 'failures', page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/testruns/{id}/failures', {
          params: { path: { id: runId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The run compared with its default baseline. */
export const runComparison = (runId: string) =>
  queryOptions({
    queryKey: [RESULTS, runId, 'comparison'],
    queryFn: () =>
      unwrap(api.GET('/internal/v1/testruns/{id}/comparison', { params: { path: { id: runId } } })),
  });

/** The run's quality gate: passed or not, rule by rule. */
export const runGate = (runId: string) =>
  queryOptions({
    queryKey: [RESULTS, runId, 'gate'],
    queryFn: () =>
      unwrap(api.GET('/internal/v1/testruns/{id}/gate', { params: { path: { id: runId } } })),
  });

/** Submits results into the run as the operator; the server checks them as a pipeline's. */
export function useSubmitResults(runId: string) {
  const queryClient = useQueryClient();
  const keyFor = useSubmissionKey();
  return useMutation({
    mutationFn: async (results: ResultItem[]) =>
      unwrap(
        api.POST('/internal/v1/testruns/{id}/results', {
          params: { path: { id: runId } },
          body: { results },
          headers: await keyFor({ results }),
        }),
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: testRun(runId).queryKey }),
        queryClient.invalidateQueries({ queryKey: [RESULTS, runId] }),
      ]),
  });
}

/** Moves the run to `status` (e.g. completed); the server says which moves are allowed. */
export function useChangeRunStatus(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: TestRunStatus) =>
      unwrap(
        api.PATCH('/internal/v1/testruns/{id}', {
          params: { path: { id: runId } },
          body: { status },
        }),
      ),
    onSuccess: (run) => {
      queryClient.setQueryData(testRun(runId).queryKey, run);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: [RESULTS, runId] }),
        queryClient.invalidateQueries({ queryKey: ['runs', 'of-project', run.project_id] }),
      ]);
    },
  });
}
