import { useRouter } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ApiFailure } from '../api/client';
import { useSignIn } from '../api/session';

export const CONSOLE_BASE = '/console';

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

/** Signing in with the operator token (ADMIN_TOKEN), which never stays in the browser. */
export function SignInPage({ redirect }: { redirect?: string }) {
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
    <main className="sign-in">
      <h1>Test management console</h1>
      <form onSubmit={submit} className="card" aria-describedby="sign-in-help">
        <h2>Sign in</h2>
        <p id="sign-in-help" className="muted">
          Enter the operator token (the service’s <code>ADMIN_TOKEN</code>).
        </p>
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
      </form>
    </main>
  );
}
