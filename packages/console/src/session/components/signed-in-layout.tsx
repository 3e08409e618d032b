import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useRouter } from '@tanstack/react-router';
import type { Session } from '../../shared/api/client';
import { sessionQuery, useSignOut } from '../api/session';

/** Who the header names: the provider's email, or the operator token. */
function signedIn(session: Session): string {
  if (session.method === 'oidc') return `Signed in as ${session.email ?? session.subject}`;
  return 'Signed in with the operator token';
}

/** The header (navigation, who is signed in, sign-out) around every signed-in page. */
export function SignedInLayout() {
  const router = useRouter();
  const session = useQuery(sessionQuery);
  const signOut = useSignOut();
  return (
    <>
      <header className="top">
        <span className="brand">Test management</span>
        <nav aria-label="Main">
          <Link to="/organizations" activeProps={{ 'aria-current': 'page' }}>
            Organizations
          </Link>
        </nav>
        <span className="who">{session.data ? signedIn(session.data) : ''}</span>
        <button
          type="button"
          className="secondary"
          disabled={signOut.isPending}
          onClick={() =>
            signOut.mutate(undefined, {
              onSettled: () => router.navigate({ to: '/sign-in', search: {} }),
            })
          }
        >
          Sign out
        </button>
      </header>
      <main className="page">
        <Outlet />
      </main>
    </>
  );
}
