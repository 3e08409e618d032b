import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';
import { useSubmissionKey } from '../../shared/api/submissions';

export type CreateOrganization = components['schemas']['CreateOrganizationDto'];
export type UpdateOrganization = components['schemas']['UpdateOrganizationDto'];

const ORGANIZATIONS = 'organizations';

export const organizationsPage = (page: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: [ORGANIZATIONS, 'page', page],
    queryFn: () => unwrap(api.GET('/internal/v1/organizations', { params: { query: page } })),
    placeholderData: keepPreviousData,
  });

export const organization = (id: string) =>
  queryOptions({
    queryKey: [ORGANIZATIONS, 'one', id],
    queryFn: () => unwrap(api.GET('/internal/v1/organizations/{id}', { params: { path: { id } } })),
  });

/** The per-minute limit every organization has (a setting of the service). */
export const sharedLimits = queryOptions({
  queryKey: ['limits'],
  queryFn: () => unwrap(api.GET('/internal/v1/limits')),
  staleTime: 5 * 60_000,
});

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  const keyFor = useSubmissionKey();
  return useMutation({
    mutationFn: async (body: CreateOrganization) =>
      unwrap(api.POST('/internal/v1/organizations', { body, headers: await keyFor(body) })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ORGANIZATIONS] }),
  });
}

export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganization) =>
      unwrap(api.PATCH('/internal/v1/organizations/{id}', { params: { path: { id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ORGANIZATIONS] }),
  });
}
