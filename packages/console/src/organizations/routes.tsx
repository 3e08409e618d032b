import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { pageSearch } from '../shared/page-search';
import { EditOrganizationPage } from './pages/edit-organization-page';
import { NewOrganizationPage } from './pages/new-organization-page';
import { OrganizationsPage } from './pages/organizations-page';

const organizationsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'organizations',
  validateSearch: pageSearch,
  component: function OrganizationsRoute() {
    const { offset } = organizationsRoute.useSearch();
    return <OrganizationsPage offset={offset ?? 0} />;
  },
});

const newOrganizationRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'organizations/new',
  component: NewOrganizationPage,
});

const editOrganizationRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'organizations/$organizationId',
  component: function EditOrganizationRoute() {
    const { organizationId } = editOrganizationRoute.useParams();
    return <EditOrganizationPage id={organizationId} />;
  },
});

export const organizationRoutes = [organizationsRoute, newOrganizationRoute, editOrganizationRoute];
