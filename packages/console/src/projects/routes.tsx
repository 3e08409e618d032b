import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { pageSearch } from '../shared/page-search';
import { OrganizationProjectsPage } from './pages/organization-projects-page';

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

export const projectRoutes = [organizationProjectsRoute];
