import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { filteredPageSearch } from '../shared/page-search';
import type { TestRunStatus } from './api/runs';
import { RUN_STATUS_NAMES } from './components/run-counts';
import { ProjectRunsPage } from './pages/project-runs-page';
import { RunPage } from './pages/run-page';
import { runSearch } from './run-view';

const projectRunsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId/runs',
  validateSearch: filteredPageSearch<TestRunStatus>(RUN_STATUS_NAMES),
  component: function ProjectRunsRoute() {
    const { projectId } = projectRunsRoute.useParams();
    const { offset, status } = projectRunsRoute.useSearch();
    return <ProjectRunsPage id={projectId} offset={offset ?? 0} status={status} />;
  },
});

const runRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'runs/$runId',
  validateSearch: runSearch,
  component: function RunRoute() {
    const { runId } = runRoute.useParams();
    const { tab, offset, status, configuration, q, order } = runRoute.useSearch();
    return (
      <RunPage
        key={runId}
        id={runId}
        view={{ tab: tab ?? 'results', offset: offset ?? 0, status, configuration, q, order }}
      />
    );
  },
});

export const runRoutes = [projectRunsRoute, runRoute];
