import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { CaseSearchPage } from './pages/case-search-page';
import { FailureSearchPage } from './pages/failure-search-page';
import { failureSearchPageSearch, searchPageSearch } from './search-view';

const failureSearchRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId/failures',
  validateSearch: failureSearchPageSearch,
  component: function FailureSearchRoute() {
    const { projectId } = failureSearchRoute.useParams();
    const { offset, q, runs } = failureSearchRoute.useSearch();
    return <FailureSearchPage id={projectId} q={q} runs={runs ?? 10} offset={offset ?? 0} />;
  },
});

const caseSearchRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'organizations/$organizationId/search',
  validateSearch: searchPageSearch,
  component: function CaseSearchRoute() {
    const { organizationId } = caseSearchRoute.useParams();
    const { offset, q } = caseSearchRoute.useSearch();
    return <CaseSearchPage id={organizationId} q={q} offset={offset ?? 0} />;
  },
});

export const searchRoutes = [failureSearchRoute, caseSearchRoute];
