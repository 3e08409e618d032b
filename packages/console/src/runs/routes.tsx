import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import { ProjectRunsPage } from './pages/project-runs-page';
import { RunPage } from './pages/run-page';
import { runListSearch } from './run-list-view';
import { runSearch } from './run-view';

const projectRunsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId/runs',
  validateSearch: runListSearch,
  component: function ProjectRunsRoute() {
    const { projectId } = projectRunsRoute.useParams();
    return <ProjectRunsPage id={projectId} view={projectRunsRoute.useSearch()} />;
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
