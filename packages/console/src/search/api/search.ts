import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type FoundFailure = components['schemas']['FoundFailureResponse'];
export type FoundTestCase = components['schemas']['FoundTestCaseResponse'];

const SEARCH = 'search';

/**
 * A page of the current results of the project's latest `runs` runs whose message or failure
 * type contains `q`, case and accents aside (the service searches).
 */
export const failureSearch = (
  projectId: string,
  page: { limit: number; offset: number; q: string; runs?: number },
) =>
  queryOptions({
    queryKey: [SEARCH, 'failures', projectId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/failures/search', {
          params: { path: { id: projectId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** A page of the organization's test cases, in any project, whose title or automation id contains `q`. */
export const caseSearch = (
  organizationId: string,
  page: { limit: number; offset: number; q: string },
) =>
  queryOptions({
    queryKey: [SEARCH, 'cases', organizationId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/organizations/{id}/testcases/search', {
          params: { path: { id: organizationId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });
