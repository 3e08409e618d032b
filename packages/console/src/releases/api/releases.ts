import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../schema';
import type { TestRunStatus } from '../../runs/api/runs';
import { api, unwrap } from '../../shared/api/client';
import { useSubmissionKey } from '../../shared/api/submissions';

export type Release = components['schemas']['ReleaseOverviewResponse'];
export type ReleaseStatus = Release['status'];
export type ReleaseProgress = Release['progress'];
export type CreateRelease = components['schemas']['CreateReleaseDto'];
export type UpdateRelease = components['schemas']['UpdateReleaseDto'];

const RELEASES = 'releases';

/** A project's releases, newest first, each with its progress as the service computes it. */
export const projectReleases = (projectId: string, page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [RELEASES, 'of-project', projectId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/projects/{id}/releases', {
          params: { path: { id: projectId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** One release with its progress and readiness. */
export const release = (id: string) =>
  queryOptions({
    queryKey: [RELEASES, 'one', id],
    queryFn: () => unwrap(api.GET('/internal/v1/releases/{id}', { params: { path: { id } } })),
  });

/** The release's runs, newest first. */
export const releaseRuns = (
  releaseId: string,
  page: { limit: number; offset: number; status?: TestRunStatus },
) =>
  queryOptions({
    queryKey: [RELEASES, 'runs', releaseId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/releases/{id}/testruns', {
          params: { path: { id: releaseId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export function useCreateRelease(projectId: string) {
  const queryClient = useQueryClient();
  const keyFor = useSubmissionKey();
  return useMutation({
    mutationFn: async (body: CreateRelease) =>
      unwrap(
        api.POST('/internal/v1/projects/{id}/releases', {
          params: { path: { id: projectId } },
          body,
          headers: await keyFor(body),
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [RELEASES] }),
  });
}

export function useUpdateRelease(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateRelease) =>
      unwrap(api.PATCH('/internal/v1/releases/{id}', { params: { path: { id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [RELEASES] }),
  });
}
