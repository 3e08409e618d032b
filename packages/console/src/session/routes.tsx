import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../layout-routes';
import { SignInPage } from './pages/sign-in-page';

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: (search: Record<string, unknown>): { redirect?: string; refused?: string } => ({
    ...(typeof search.redirect === 'string' ? { redirect: search.redirect } : {}),
    ...(typeof search.refused === 'string' ? { refused: search.refused } : {}),
  }),
  component: function SignInRoute() {
    const { redirect, refused } = signInRoute.useSearch();
    return <SignInPage redirect={redirect} refused={refused} />;
  },
});

export const sessionRoutes = [signInRoute];
