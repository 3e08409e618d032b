import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ApiFailure } from '../../shared/api/client';
import { CONSOLE_BASE } from '../../shared/console-base';
import { providerSignInHref, signInOptionsQuery, useSignIn } from '../api/session';

/** Where to go after signing in: a page of the console only, never another site. */
export function afterSignIn(redirect: string | undefined): string {
  const inConsole =
    redirect !== undefined &&
    redirect.startsWith(`${CONSOLE_BASE}/`) &&
    !redirect.startsWith(`${CONSOLE_BASE}/sign-in`);
  return inConsole ? redirect : `${CONSOLE_BASE}/organizations`;
}

function signInMessage(error: Error): string {
  if (error instanceof ApiFailure && error.status === 401) {
    return 'That is not the operator token.';
  }
  return error.message;
}

/** Why the provider's sign-in opened no session (the service's `?refused=` reasons). */
export const REFUSALS: Record<string, string> = {
  email_domain: 'Your email address is not in a domain allowed to operate this service.',
  email_unverified: 'The identity provider has not verified your email address.',
  not_in_group: 'You are not in the group allowed to operate this service.',
  state: 'The sign-in did not come back to the browser that started it. Please sign in again.',
  expired: 'The sign-in took too long or was already used. Please sign in again.',
  provider_error: 'The identity provider did not complete the sign-in. Please try again.',
  provider_unavailable:
    'The identity provider cannot be reached right now. Please try again in a moment.',
};

/**
 * Signing in: through the OpenID provider when the service has one (the token form is then
 * shown disabled), otherwise with the operator token (ADMIN_TOKEN), which never stays in the
 * browser.
 */
export function SignInPage({ redirect, refused }: { redirect?: string; refused?: string }) {
  const options = useQuery(signInOptionsQuery);
  const provider = options.data?.method === 'oidc' ? (options.data.provider ?? 'SSO') : null;
  const refusal =
    refused === undefined ? undefined : (REFUSALS[refused] ?? REFUSALS.provider_error);
  return (
    <main className="sign-in">
      <h1>Test management console</h1>
      {refusal ? (
        <p id="sign-in-refused" className="form-error card" role="alert">
          {refusal}
        </p>
      ) : null}
      {provider !== null ? (
        <section className="card" aria-labelledby="sso-heading">
          <h2 id="sso-heading">Sign in</h2>
          <p className="muted">Operators sign in through the organization’s identity provider.</p>
          <a className="button" href={providerSignInHref(afterSignIn(redirect))}>
            Sign in with {provider}
          </a>
        </section>
      ) : null}
      <TokenSignIn
        redirect={redirect}
        disabled={options.isPending || provider !== null}
        heading={provider !== null ? 'Operator token' : 'Sign in'}
        help={
          provider !== null
            ? 'Signing in with the operator token is turned off while an identity provider is configured.'
            : undefined
        }
      />
    </main>
  );
}

function TokenSignIn({
  redirect,
  disabled,
  heading,
  help,
}: {
  redirect?: string;
  disabled: boolean;
  heading: string;
  help?: string;
}) {
  const router = useRouter();
  const signIn = useSignIn();
  const [token, setToken] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(token, {
      onSuccess: () => {
        setToken('');
        router.history.push(afterSignIn(redirect));
      },
    });
  };

  return (
    <form onSubmit={submit} className="card" aria-describedby="sign-in-help">
      <h2>{heading}</h2>
      <p id="sign-in-help" className="muted">
        {help ?? (
          <>
            Enter the operator token (the service’s <code>ADMIN_TOKEN</code>).
          </>
        )}
      </p>
      <fieldset disabled={disabled}>
        <label htmlFor="token">Operator token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="current-password"
          required
          value={token}
          onChange={(event) => setToken(event.target.value)}
          aria-invalid={signIn.isError || undefined}
          aria-describedby={signIn.isError ? 'sign-in-error' : undefined}
        />
        {signIn.isError ? (
          <p id="sign-in-error" className="form-error" role="alert">
            {signInMessage(signIn.error)}
          </p>
        ) : null}
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </fieldset>
    </form>
  );
}
