import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../schema';
import { api, unwrap } from '../../shared/api/client';

export type ApiKey = components['schemas']['ApiKeyResponse'];
export type CreateApiKey = components['schemas']['CreateApiKeyDto'];
export type Scope = ApiKey['scopes'][number];

const API_KEYS = 'api-keys';

/**
 * Every scope a key can carry, in the order the service declares them: read at build time from
 * internal-openapi.json (vite.config.ts), so the console holds no copy of the list.
 */
export const API_KEY_SCOPES = __API_KEY_SCOPES__ as readonly Scope[];

/** An organization's live keys, newest first (never the key itself, only its prefix). */
export const organizationApiKeys = (
  organizationId: string,
  page: { limit: number; offset: number },
) =>
  queryOptions({
    queryKey: [API_KEYS, 'of-organization', organizationId, page],
    queryFn: () =>
      unwrap(
        api.GET('/internal/v1/organizations/{id}/api-keys', {
          params: { path: { id: organizationId }, query: page },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/**
 * Creates a key. The key itself goes to `onKey` (the dialog that shows it once) and is left
 * out of the mutation's result, so it never lands in TanStack Query's mutation cache.
 */
export function useCreateApiKey(
  organizationId: string,
  onKey: (key: string, name: string) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateApiKey): Promise<ApiKey> => {
      const { key, ...created } = await unwrap(
        api.POST('/internal/v1/organizations/{id}/api-keys', {
          params: { path: { id: organizationId } },
          body,
        }),
      );
      if (key) onKey(key, created.name);
      return created;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [API_KEYS] }),
  });
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/internal/v1/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [API_KEYS] }),
  });
}
