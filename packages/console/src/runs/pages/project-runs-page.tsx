import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { project } from '../../projects/api/projects';
import { projectRuns, useLiveProjectRuns, type TestRunStatus } from '../api/runs';
import { LiveStatus } from '../components/live-status';
import { BackToProjects, ProjectPageHead } from '../../shared/components/page-head';
import { Pager } from '../../shared/components/pager';
import { RUN_STATUS_NAMES } from '../components/run-counts';
import { RunsTable } from '../components/runs-table';
import { listState, PastLast } from '../../shared/components/states';
import { StatusFilter } from '../../shared/components/status-filter';

const RUNS_PAGE_SIZE = 25;

/** A project's test runs, newest first: status and counts, a page at a time, live. */
export function ProjectRunsPage({
  id,
  offset,
  status,
}: {
  id: string;
  offset: number;
  status?: TestRunStatus;
}) {
  const navigate = useNavigate();
  const current = useQuery(project(id));
  const page = useQuery(projectRuns(id, { limit: RUNS_PAGE_SIZE, offset, status }));
  const live = useLiveProjectRuns(id);
  const filter: Record<string, string> = status ? { status } : {};

  let body = listState(page, offset, {
    what: 'test runs',
    missing: 'There is no such project.',
    empty: (
      <p>
        {status
          ? `No ${RUN_STATUS_NAMES[status].toLowerCase()} runs in this project.`
          : 'This project has no test runs yet.'}
      </p>
    ),
    pastLast: (
      <PastLast to="/projects/$projectId/runs" params={{ projectId: id }} search={filter}>
        This page is past the last run.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <RunsTable runs={page.data.data} caption="Test runs, newest first" />
        <Pager
          pagination={page.data.pagination}
          to="/projects/$projectId/runs"
          params={{ projectId: id }}
          search={filter}
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
            value={status}
            names={RUN_STATUS_NAMES}
            onChange={(next) =>
              void navigate({
                to: '/projects/$projectId/runs',
                params: { projectId: id },
                search: next ? { status: next } : {},
              })
            }
          />
        }
      />
      {current.isSuccess ? (
        <LiveStatus stream={live} live="Live: runs and their counts update as results arrive" />
      ) : null}
      {body}
    </>
  );
}
