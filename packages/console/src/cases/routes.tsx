import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { pageSearch, searchedPageSearch } from '../shared/page-search';
import { CasePage } from './pages/case-page';
import { ProjectCasesPage } from './pages/project-cases-page';
import { ProjectFlakyPage } from './pages/project-flaky-page';
import { ProjectQuarantinePage } from './pages/project-quarantine-page';

const projectCasesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId/cases',
  validateSearch: searchedPageSearch,
  component: function ProjectCasesRoute() {
    const { projectId } = projectCasesRoute.useParams();
    const { offset, q } = projectCasesRoute.useSearch();
    return <ProjectCasesPage key={q ?? ''} id={projectId} offset={offset ?? 0} q={q} />;
  },
});

const caseRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'cases/$caseId',
  validateSearch: pageSearch,
  component: function CaseRoute() {
    const { caseId } = caseRoute.useParams();
    const { offset } = caseRoute.useSearch();
    return <CasePage key={caseId} id={caseId} offset={offset ?? 0} />;
  },
});

const projectFlakyRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId/flaky-tests',
  validateSearch: pageSearch,
  component: function ProjectFlakyRoute() {
    const { projectId } = projectFlakyRoute.useParams();
    const { offset } = projectFlakyRoute.useSearch();
    return <ProjectFlakyPage id={projectId} offset={offset ?? 0} />;
  },
});

const projectQuarantineRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId/quarantine',
  validateSearch: pageSearch,
  component: function ProjectQuarantineRoute() {
    const { projectId } = projectQuarantineRoute.useParams();
    const { offset } = projectQuarantineRoute.useSearch();
    return <ProjectQuarantinePage id={projectId} offset={offset ?? 0} />;
  },
});

export const caseRoutes = [projectCasesRoute, caseRoute, projectFlakyRoute, projectQuarantineRoute];
