import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type Build = components['schemas']['BuildResponse'];

const BUILDS = 'builds';

/** The organization's planned builds, in queue order. */
export const buildQueue = (organizationId: string, page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [BUILDS, 'queue', organizationId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/organizations/{id}/build-queue', {
          params: { path: { id: organizationId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Assigns a build to a release: it leaves the queue, and the release counts it. */
export function useAssignBuild() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ buildId, releaseId }: { buildId: string; releaseId: string }) =>
      unwrap(
        api.POST('/internal/v1/builds/{id}/assign', {
          params: { path: { id: buildId } },
          body: { release_id: releaseId },
        }),
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [BUILDS] }),
        queryClient.invalidateQueries({ queryKey: ['releases'] }),
      ]),
  });
}
