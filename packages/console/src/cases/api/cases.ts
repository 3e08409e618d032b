import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type TestCase = components['schemas']['TestCaseResponse'];
export type CaseWithQuarantine = components['schemas']['InternalTestCaseResponse'];
export type CaseHistoryItem = components['schemas']['CaseHistoryItem'];
export type FlakyTest = components['schemas']['FlakyTestResponse'];
export type QuarantineEntry = components['schemas']['QuarantineEntryResponse'];
export type Quarantine = components['schemas']['QuarantineDto'];
export type QuarantinedCase = components['schemas']['InternalQuarantineEntryResponse'];

const CASES = 'cases';
const FLAKY = 'flaky-tests';
const QUARANTINE = 'quarantine';

/** A project's test cases, newest first; `q` searches their titles and automation ids. */
export const projectCases = (
  projectId: string,
  page: { limit: number; offset: number; q?: string },
) =>
  queryOptions({
    queryKey: [CASES, 'of-project', projectId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/testcases', {
          params: { path: { id: projectId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** One test case with its organization and its quarantine entry (null when not quarantined). */
export const testCase = (id: string) =>
  queryOptions({
    queryKey: [CASES, 'one', id],
    queryFn: () => unwrap(api.GET('/internal/v1/testcases/{id}', { params: { path: { id } } })),
  });

/** A page of the case's results across runs, newest first. */
export const caseHistory = (id: string, page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [CASES, 'history', id, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/testcases/{id}/results', {
          params: { path: { id }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The project's flaky cases, most flaky first, as the service judges them (CONTRACT §12). */
export const flakyTests = (projectId: string, page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [FLAKY, projectId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/flaky-tests', {
          params: { path: { id: projectId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The project's cases in quarantine now, flaky or not, newest first. */
export const quarantinedCases = (projectId: string, page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [QUARANTINE, projectId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/quarantine', {
          params: { path: { id: projectId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Quarantine changes show on the case page, the flaky list and the quarantine list alike. */
function useRefreshAfterQuarantine() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [CASES] }),
      queryClient.invalidateQueries({ queryKey: [FLAKY] }),
      queryClient.invalidateQueries({ queryKey: [QUARANTINE] }),
    ]);
}

/** Puts a case in quarantine, or changes its entry (reason, expiry). */
export function useQuarantine(projectId: string) {
  const refresh = useRefreshAfterQuarantine();
  return useMutation({
    mutationFn: ({ testCaseId, body }: { testCaseId: string; body: Quarantine }) =>
      unwrap(
        api.PUT('/internal/v1/projects/{id}/quarantine/{testCaseId}', {
          params: { path: { id: projectId, testCaseId } },
          body,
        }),
      ),
    onSuccess: refresh,
  });
}

/** Takes a case out of quarantine. */
export function useUnquarantine(projectId: string) {
  const refresh = useRefreshAfterQuarantine();
  return useMutation({
    mutationFn: (testCaseId: string) =>
      unwrap(
        api.DELETE('/internal/v1/projects/{id}/quarantine/{testCaseId}', {
          params: { path: { id: projectId, testCaseId } },
        }),
      ),
    onSuccess: refresh,
  });
}
