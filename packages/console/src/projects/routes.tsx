import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { pageSearch } from '../shared/page-search';
import { OrganizationProjectsPage } from './pages/organization-projects-page';
import { ProjectSettingsPage } from './pages/project-settings-page';

const organizationProjectsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'organizations/$organizationId/projects',
  validateSearch: pageSearch,
  component: function OrganizationProjectsRoute() {
    const { organizationId } = organizationProjectsRoute.useParams();
    const { offset } = organizationProjectsRoute.useSearch();
    return <OrganizationProjectsPage id={organizationId} offset={offset ?? 0} />;
  },
});

const projectSettingsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId/settings',
  component: function ProjectSettingsRoute() {
    const { projectId } = projectSettingsRoute.useParams();
    return <ProjectSettingsPage id={projectId} />;
  },
});

export const projectRoutes = [organizationProjectsRoute, projectSettingsRoute];
