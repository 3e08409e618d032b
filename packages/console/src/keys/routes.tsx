import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { pageSearch } from '../shared/page-search';
import { OrganizationApiKeysPage } from './pages/organization-api-keys-page';

const organizationApiKeysRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'organizations/$organizationId/api-keys',
  validateSearch: pageSearch,
  component: function OrganizationApiKeysRoute() {
    const { organizationId } = organizationApiKeysRoute.useParams();
    const { offset } = organizationApiKeysRoute.useSearch();
    return <OrganizationApiKeysPage id={organizationId} offset={offset ?? 0} />;
  },
});

export const keyRoutes = [organizationApiKeysRoute];
