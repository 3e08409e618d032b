import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Link,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { sessionQuery } from './api/session';
import { SignedInLayout } from './components/signed-in-layout';
import { OrganizationsPage } from './pages/organizations-page';
import type { ResultStatus, TestRunStatus } from './api/runs';
import { RESULT_STATUS_NAMES, RUN_STATUS_NAMES } from './components/run-counts';
import { EditOrganizationPage, NewOrganizationPage } from './pages/organization-pages';
import { OrganizationApiKeysPage } from './pages/organization-api-keys-page';
import { OrganizationProjectsPage } from './pages/organization-projects-page';
import { ProjectRunsPage } from './pages/project-runs-page';
import { RunPage } from './pages/run-page';
import { CONSOLE_BASE, SignInPage } from './pages/sign-in-page';

/** A page's place in a list, from `?offset=`: a whole number; none on the first page. */
function pageSearch(search: Record<string, unknown>): { offset?: number } {
  const offset = Number(search.offset);
  return Number.isInteger(offset) && offset > 0 ? { offset } : {};
}

/** `?offset=` and `?status=`, the status one of `names` (any other is dropped). */
function filteredPageSearch<S extends string>(names: Record<S, string>) {
  return (search: Record<string, unknown>): { offset?: number; status?: S } => {
    const status = search.status;
    return typeof status === 'string' && Object.hasOwn(names, status)
      ? { ...pageSearch(search), status: status as S }
      : pageSearch(search);
  };
}

const root = createRootRouteWithContext<{ queryClient: QueryClient }>()({
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

const signIn = createRoute({
  getParentRoute: () => root,
  path: 'sign-in',
  validateSearch: (search: Record<string, unknown>): { redirect?: string; refused?: string } => ({
    ...(typeof search.redirect === 'string' ? { redirect: search.redirect } : {}),
    ...(typeof search.refused === 'string' ? { refused: search.refused } : {}),
  }),
  component: function SignInRoute() {
    const { redirect: to, refused } = signIn.useSearch();
    return <SignInPage redirect={to} refused={refused} />;
  },
});

/** Every page but sign-in: without a live session, sign in first and come back. */
const signedIn = createRoute({
  getParentRoute: () => root,
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

const home = createRoute({
  getParentRoute: () => signedIn,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/organizations' });
  },
});

const organizations = createRoute({
  getParentRoute: () => signedIn,
  path: 'organizations',
  validateSearch: pageSearch,
  component: function OrganizationsRoute() {
    const { offset } = organizations.useSearch();
    return <OrganizationsPage offset={offset ?? 0} />;
  },
});

const newOrganization = createRoute({
  getParentRoute: () => signedIn,
  path: 'organizations/new',
  component: NewOrganizationPage,
});

const editOrganization = createRoute({
  getParentRoute: () => signedIn,
  path: 'organizations/$organizationId',
  component: function EditOrganizationRoute() {
    const { organizationId } = editOrganization.useParams();
    return <EditOrganizationPage id={organizationId} />;
  },
});

const organizationProjects = createRoute({
  getParentRoute: () => signedIn,
  path: 'organizations/$organizationId/projects',
  validateSearch: pageSearch,
  component: function OrganizationProjectsRoute() {
    const { organizationId } = organizationProjects.useParams();
    const { offset } = organizationProjects.useSearch();
    return <OrganizationProjectsPage id={organizationId} offset={offset ?? 0} />;
  },
});

const organizationApiKeys = createRoute({
  getParentRoute: () => signedIn,
  path: 'organizations/$organizationId/api-keys',
  validateSearch: pageSearch,
  component: function OrganizationApiKeysRoute() {
    const { organizationId } = organizationApiKeys.useParams();
    const { offset } = organizationApiKeys.useSearch();
    return <OrganizationApiKeysPage id={organizationId} offset={offset ?? 0} />;
  },
});

const projectRuns = createRoute({
  getParentRoute: () => signedIn,
  path: 'projects/$projectId',
  validateSearch: filteredPageSearch<TestRunStatus>(RUN_STATUS_NAMES),
  component: function ProjectRunsRoute() {
    const { projectId } = projectRuns.useParams();
    const { offset, status } = projectRuns.useSearch();
    return <ProjectRunsPage id={projectId} offset={offset ?? 0} status={status} />;
  },
});

const run = createRoute({
  getParentRoute: () => signedIn,
  path: 'runs/$runId',
  validateSearch: filteredPageSearch<ResultStatus>(RESULT_STATUS_NAMES),
  component: function RunRoute() {
    const { runId } = run.useParams();
    const { offset, status } = run.useSearch();
    return <RunPage key={runId} id={runId} offset={offset ?? 0} status={status} />;
  },
});

const routes = root.addChildren([
  signIn,
  signedIn.addChildren([
    home,
    organizations,
    newOrganization,
    editOrganization,
    organizationProjects,
    organizationApiKeys,
    projectRuns,
    run,
  ]),
]);

export function createConsoleRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree: routes,
    basepath: CONSOLE_BASE,
    context: { queryClient },
    defaultPreload: false,
  });
}
