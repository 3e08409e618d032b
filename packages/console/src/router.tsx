import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Link,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { sessionQuery } from './session/api/session';
import { SignedInLayout } from './session/components/signed-in-layout';
import { OrganizationsPage } from './organizations/pages/organizations-page';
import type { ResultStatus, TestRunStatus } from './runs/api/runs';
import { RESULT_STATUS_NAMES, RUN_STATUS_NAMES } from './runs/components/run-counts';
import {
  EditOrganizationPage,
  NewOrganizationPage,
} from './organizations/pages/organization-pages';
import { OrganizationApiKeysPage } from './keys/pages/organization-api-keys-page';
import { OrganizationProjectsPage } from './projects/pages/organization-projects-page';
import { OrganizationWebhooksPage } from './webhooks/pages/organization-webhooks-page';
import { WebhookDeliveriesPage } from './webhooks/pages/webhook-deliveries-page';
import { ProjectRunsPage } from './runs/pages/project-runs-page';
import { RUN_TABS, RunPage, type RunTab, type RunView } from './runs/pages/run-page';
import { OrganizationBuildQueuePage } from './releases/pages/organization-build-queue-page';
import { ProjectReleasesPage } from './releases/pages/project-releases-page';
import { ReleasePage } from './releases/pages/release-page';
import { SignInPage } from './session/pages/sign-in-page';
import { CONSOLE_BASE } from './shared/console-base';
import { CasePage } from './cases/pages/case-page';
import { ProjectCasesPage } from './cases/pages/project-cases-page';
import { ProjectFlakyPage } from './cases/pages/project-flaky-page';

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

/** The run page's `?tab=`, `?offset=`, `?status=` and `?q=` (a search of 1–255 characters). */
function runSearch(search: Record<string, unknown>): Partial<RunView> {
  const { offset, status } = filteredPageSearch<ResultStatus>(RESULT_STATUS_NAMES)(search);
  const tab = search.tab;
  const q = typeof search.q === 'string' ? search.q.trim() : '';
  return {
    ...(typeof tab === 'string' && tab !== 'results' && Object.hasOwn(RUN_TABS, tab)
      ? { tab: tab as RunTab }
      : {}),
    ...(offset === undefined ? {} : { offset }),
    ...(status === undefined ? {} : { status }),
    ...(q.length > 0 && q.length <= 255 ? { q } : {}),
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
  validateSearch: runSearch,
  component: function RunRoute() {
    const { runId } = run.useParams();
    const { tab, offset, status, q } = run.useSearch();
    return (
      <RunPage
        key={runId}
        id={runId}
        view={{ tab: tab ?? 'results', offset: offset ?? 0, status, q }}
      />
    );
  },
});

const projectReleases = createRoute({
  getParentRoute: () => signedIn,
  path: 'projects/$projectId/releases',
  validateSearch: pageSearch,
  component: function ProjectReleasesRoute() {
    const { projectId } = projectReleases.useParams();
    const { offset } = projectReleases.useSearch();
    return <ProjectReleasesPage id={projectId} offset={offset ?? 0} />;
  },
});

const releasePage = createRoute({
  getParentRoute: () => signedIn,
  path: 'releases/$releaseId',
  validateSearch: pageSearch,
  component: function ReleaseRoute() {
    const { releaseId } = releasePage.useParams();
    const { offset } = releasePage.useSearch();
    return <ReleasePage key={releaseId} id={releaseId} offset={offset ?? 0} />;
  },
});

const organizationBuildQueue = createRoute({
  getParentRoute: () => signedIn,
  path: 'organizations/$organizationId/build-queue',
  validateSearch: pageSearch,
  component: function OrganizationBuildQueueRoute() {
    const { organizationId } = organizationBuildQueue.useParams();
    const { offset } = organizationBuildQueue.useSearch();
    return <OrganizationBuildQueuePage id={organizationId} offset={offset ?? 0} />;
  },
});

const organizationWebhooks = createRoute({
  getParentRoute: () => signedIn,
  path: 'organizations/$organizationId/webhooks',
  validateSearch: pageSearch,
  component: function OrganizationWebhooksRoute() {
    const { organizationId } = organizationWebhooks.useParams();
    const { offset } = organizationWebhooks.useSearch();
    return <OrganizationWebhooksPage id={organizationId} offset={offset ?? 0} />;
  },
});

/** A subscription's delivery log: `?offset=` and the opened delivery, `?delivery=`. */
const webhookDeliveries = createRoute({
  getParentRoute: () => signedIn,
  path: 'webhooks/$webhookId',
  validateSearch: (search: Record<string, unknown>): { offset?: number; delivery?: string } =>
    typeof search.delivery === 'string' && search.delivery !== ''
      ? { ...pageSearch(search), delivery: search.delivery }
      : pageSearch(search),
  component: function WebhookDeliveriesRoute() {
    const { webhookId } = webhookDeliveries.useParams();
    const { offset, delivery } = webhookDeliveries.useSearch();
    return (
      <WebhookDeliveriesPage
        key={webhookId}
        id={webhookId}
        offset={offset ?? 0}
        delivery={delivery}
      />
    );
  },
});

/** `?offset=` and `?q=` (a search text, kept when it is not blank). */
function searchedPageSearch(search: Record<string, unknown>): { offset?: number; q?: string } {
  const q = typeof search.q === 'string' ? search.q.trim() : '';
  return q === '' ? pageSearch(search) : { ...pageSearch(search), q };
}

const projectCases = createRoute({
  getParentRoute: () => signedIn,
  path: 'projects/$projectId/cases',
  validateSearch: searchedPageSearch,
  component: function ProjectCasesRoute() {
    const { projectId } = projectCases.useParams();
    const { offset, q } = projectCases.useSearch();
    return <ProjectCasesPage key={q ?? ''} id={projectId} offset={offset ?? 0} q={q} />;
  },
});

const testCase = createRoute({
  getParentRoute: () => signedIn,
  path: 'cases/$caseId',
  validateSearch: pageSearch,
  component: function CaseRoute() {
    const { caseId } = testCase.useParams();
    const { offset } = testCase.useSearch();
    return <CasePage key={caseId} id={caseId} offset={offset ?? 0} />;
  },
});

const projectFlaky = createRoute({
  getParentRoute: () => signedIn,
  path: 'projects/$projectId/flaky-tests',
  validateSearch: pageSearch,
  component: function ProjectFlakyRoute() {
    const { projectId } = projectFlaky.useParams();
    const { offset } = projectFlaky.useSearch();
    return <ProjectFlakyPage id={projectId} offset={offset ?? 0} />;
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
    projectReleases,
    releasePage,
    organizationBuildQueue,
    organizationWebhooks,
    webhookDeliveries,
    projectCases,
    testCase,
    projectFlaky,
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
