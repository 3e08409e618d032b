import { Link } from '@tanstack/react-router';

/** Links between a project's pages; the current one is marked. */
export function ProjectNav({ projectId }: { projectId: string }) {
  const params = { projectId };
  const current = { 'aria-current': 'page' as const, className: 'current' };
  return (
    <nav className="tabs" aria-label="Project">
      <Link
        to="/projects/$projectId"
        params={params}
        activeOptions={{ exact: true }}
        activeProps={current}
      >
        Test runs
      </Link>
      <Link to="/projects/$projectId/releases" params={params} activeProps={current}>
        Releases
      </Link>
      <Link to="/projects/$projectId/cases" params={params} activeProps={current}>
        Test cases
      </Link>
      <Link to="/projects/$projectId/flaky-tests" params={params} activeProps={current}>
        Flaky tests
      </Link>
    </nav>
  );
}
