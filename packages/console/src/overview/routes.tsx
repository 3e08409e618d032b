import { createRoute } from '@tanstack/react-router';
import { signedInRoute } from '../layout-routes';
import type { Series } from './api/overview';
import { ProjectOverviewPage } from './pages/project-overview-page';

/** `?name=` and `?branch=` (each 1–255 characters): the series the overview follows. */
function seriesSearch(search: Record<string, unknown>): Partial<Series> {
  const text = (value: unknown) =>
    typeof value === 'string' && value.length > 0 && value.length <= 255 ? value : undefined;
  const name = text(search.name);
  const branch = text(search.branch);
  if (name === undefined) return {};
  return branch === undefined ? { name } : { name, branch };
}

/** A project's first page. */
const projectOverviewRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'projects/$projectId',
  validateSearch: seriesSearch,
  component: function ProjectOverviewRoute() {
    const { projectId } = projectOverviewRoute.useParams();
    const { name, branch } = projectOverviewRoute.useSearch();
    const chosen = name === undefined ? undefined : { name, ...(branch ? { branch } : {}) };
    return <ProjectOverviewPage key={projectId} id={projectId} chosen={chosen} />;
  },
});

export const overviewRoutes = [projectOverviewRoute];
