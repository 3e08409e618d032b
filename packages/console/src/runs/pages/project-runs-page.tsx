import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { project } from '../../projects/api/projects';
import { projectRuns, useLiveProjectRuns } from '../api/runs';
import { LiveStatus } from '../components/live-status';
import { BackToProjects, ProjectPageHead } from '../../shared/components/page-head';
import { Pager } from '../../shared/components/pager';
import { RUN_STATUS_NAMES } from '../components/run-counts';
import { RunListFilters } from '../components/run-list-filters';
import { RunListTable } from '../components/run-list-table';
import { listState, PastLast } from '../../shared/components/states';
import { StatusFilter } from '../../shared/components/status-filter';
import { runListFilters, runListQuery, type RunListView } from '../run-list-view';

const RUNS_PAGE_SIZE = 25;

/**
 * A project's test runs, newest first, a page at a time, live: each with its build (number,
 * branch, commit), status and kept gate verdict, pass rate, counts, configurations and
 * duration; filtered by status, run name, branch and creation days, all kept in the URL.
 */
export function ProjectRunsPage({ id, view }: { id: string; view: RunListView }) {
  const navigate = useNavigate();
  const offset = view.offset ?? 0;
  const filters = runListFilters(view);
  const current = useQuery(project(id));
  const page = useQuery(
    projectRuns(id, { limit: RUNS_PAGE_SIZE, offset, ...runListQuery(filters) }),
  );
  const live = useLiveProjectRuns(id);
  const show = (next: RunListView) =>
    void navigate({ to: '/projects/$projectId/runs', params: { projectId: id }, search: next });
  // What the pager's and the past-the-end links keep of the URL: the filters, as text.
  const kept = Object.fromEntries(
    Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const filtered = Object.keys(kept).length > 0;

  let body = listState(page, offset, {
    what: 'test runs',
    missing: 'There is no such project.',
    empty: (
      <p>
        {filtered
          ? view.status && Object.keys(kept).length === 1
            ? `No ${RUN_STATUS_NAMES[view.status].toLowerCase()} runs in this project.`
            : 'No runs of this project match these filters.'
          : 'This project has no test runs yet.'}
      </p>
    ),
    pastLast: (
      <PastLast to="/projects/$projectId/runs" params={{ projectId: id }} search={kept}>
        This page is past the last run.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <RunListTable
          projectId={id}
          runs={page.data.data}
          view={filters}
          caption="Test runs, newest first"
        />
        <Pager
          pagination={page.data.pagination}
          to="/projects/$projectId/runs"
          params={{ projectId: id }}
          search={kept}
        />
      </>
    );
  }

  return (
    <>
      <ProjectPageHead
        projectId={id}
        project={current.data}
        title="Test runs"
        back={<BackToProjects project={current.data} />}
        actions={
          <StatusFilter
            label="Status"
            value={view.status}
            names={RUN_STATUS_NAMES}
            onChange={(status) => show({ ...filters, status })}
          />
        }
      />
      <RunListFilters
        key={JSON.stringify(filters)}
        view={filters}
        onApply={(chosen) => show({ status: filters.status, ...chosen })}
      />
      {current.isSuccess ? (
        <LiveStatus stream={live} live="Live: runs and their counts update as results arrive" />
      ) : null}
      {body}
    </>
  );
}
