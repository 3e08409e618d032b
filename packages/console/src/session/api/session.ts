import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiFailure, api, rememberCsrfToken, unwrap, type Session } from '../../shared/api/client';

export const SESSION_KEY = ['session'] as const;

/** How the sign-in page signs in: the operator token, or only through the OpenID provider. */
export const signInOptionsQuery = queryOptions({
  queryKey: ['sign-in-options'] as const,
  queryFn: () => unwrap(api.GET('/internal/v1/session/options')),
  staleTime: Infinity,
});

/** Where the provider's sign-in starts; the service sends the browser on to the provider. */
export function providerSignInHref(redirect: string): string {
  return `/internal/v1/session/oidc?${new URLSearchParams({ redirect })}`;
}

/** The signed-in session, or null when there is none (401). */
export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: async (): Promise<Session | null> => {
    const { data, error, response } = await api.GET('/internal/v1/session');
    if (response.status === 401) {
      rememberCsrfToken(null);
      return null;
    }
    if (!response.ok || data === undefined) {
      throw new ApiFailure(response.status, error as ApiFailure['envelope']);
    }
    rememberCsrfToken(data.csrf_token);
    return data;
  },
  staleTime: Infinity,
  retry: false,
});

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => unwrap(api.POST('/internal/v1/session', { body: { token } })),
    onSuccess: (session) => {
      rememberCsrfToken(session.csrf_token);
      queryClient.setQueryData(SESSION_KEY, session);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/internal/v1/session')),
    onSettled: () => forgetSession(queryClient),
  });
}

/** Drops the session and everything read with it. */
export function forgetSession(queryClient: ReturnType<typeof useQueryClient>): void {
  rememberCsrfToken(null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  queryClient.setQueryData(SESSION_KEY, null);
}
