import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  Link,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { sessionQuery } from './session/api/session';
import { SignedInLayout } from './session/components/signed-in-layout';
import { CONSOLE_BASE } from './shared/console-base';

/** The console's root: each feature's routes hang below it or below `signedInRoute`. */
export const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Outlet,
  notFoundComponent: () => (
    <main className="sign-in">
      <h1>Page not found</h1>
      <p>
        <Link to="/organizations">Go to the organizations</Link>
      </p>
    </main>
  ),
});

/** Every page but sign-in: without a live session, sign in first and come back. */
export const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    if (session === null) {
      throw redirect({ to: '/sign-in', search: { redirect: consolePath(location.href) } });
    }
  },
  component: SignedInLayout,
});

function consolePath(href: string): string {
  return href.startsWith(`${CONSOLE_BASE}/`) ? href : `${CONSOLE_BASE}${href}`;
}

export const homeRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/organizations' });
  },
});
