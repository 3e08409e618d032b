import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { pageSearch } from '../shared/page-search';
import { OrganizationBuildQueuePage } from './pages/organization-build-queue-page';
import { ProjectReleasesPage } from './pages/project-releases-page';
import { ReleasePage } from './pages/release-page';

const projectReleasesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId/releases',
  validateSearch: pageSearch,
  component: function ProjectReleasesRoute() {
    const { projectId } = projectReleasesRoute.useParams();
    const { offset } = projectReleasesRoute.useSearch();
    return <ProjectReleasesPage id={projectId} offset={offset ?? 0} />;
  },
});

const releaseRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'releases/$releaseId',
  validateSearch: pageSearch,
  component: function ReleaseRoute() {
    const { releaseId } = releaseRoute.useParams();
    const { offset } = releaseRoute.useSearch();
    return <ReleasePage key={releaseId} id={releaseId} offset={offset ?? 0} />;
  },
});

const organizationBuildQueueRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'organizations/$organizationId/build-queue',
  validateSearch: pageSearch,
  component: function OrganizationBuildQueueRoute() {
    const { organizationId } = organizationBuildQueueRoute.useParams();
    const { offset } = organizationBuildQueueRoute.useSearch();
    return <OrganizationBuildQueuePage id={organizationId} offset={offset ?? 0} />;
  },
});

export const releaseRoutes = [projectReleasesRoute, releaseRoute, organizationBuildQueueRoute];
