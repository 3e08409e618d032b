import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { project } from '../../projects/api/projects';
import { release, releaseRuns, useUpdateRelease } from '../api/releases';
import { BackToOrganizations } from '../../shared/components/page-head';
import { Pager } from '../../shared/components/pager';
import {
  NotReadyReasons,
  ReadinessBadge,
  ReleaseStatusBadge,
  ReleaseTiles,
} from '../components/release-progress';
import { RunsTable } from '../../runs/components/runs-table';
import { listState, PastLast, readState } from '../../shared/components/states';
import { utcMinute } from '../../shared/formats';
import { EditReleaseForm } from '../components/edit-release-form';

const RELEASE_RUNS_PAGE_SIZE = 25;

/**
 * A release: its readiness (and why not, in the service's reasons) and figures as the service
 * computes them, its runs, and editing.
 */
export function ReleasePage({ id, offset }: { id: string; offset: number }) {
  const current = useQuery(release(id));
  const owner = useQuery({
    ...project(current.data?.project_id ?? ''),
    enabled: current.isSuccess,
  });
  // Here, not in the form: the form remounts with the saved release, the outcome stays.
  const update = useUpdateRelease(id);

  let body = readState(current, { what: 'the release', missing: 'There is no such release.' });
  if (current.isSuccess) {
    const r = current.data;
    body = (
      <>
        <p className="title-row">
          <ReleaseStatusBadge status={r.status} /> <ReadinessBadge ready={r.progress.ready} />
        </p>
        <NotReadyReasons progress={r.progress} quarantinedFailures={r.quarantined_failures} />
        <dl className="facts">
          <dt>Version</dt>
          <dd>{r.version ?? <span className="muted">—</span>}</dd>
          <dt>Target date</dt>
          <dd>{r.target_date ?? <span className="muted">—</span>}</dd>
          <dt>Released</dt>
          <dd>
            {r.released_at ? (
              `${utcMinute.format(new Date(r.released_at))} UTC`
            ) : (
              <span className="muted">Not yet</span>
            )}
          </dd>
          {r.runs_deleted > 0 ? (
            <>
              <dt>Runs deleted</dt>
              <dd>
                {r.runs_deleted} by the project’s retention: their results no longer count in the
                progress below
              </dd>
            </>
          ) : null}
        </dl>
        <h2 className="section">Progress</h2>
        <ReleaseTiles progress={r.progress} />
        <h2 className="section" id="release-runs">
          Test runs
        </h2>
        <ReleaseRuns id={id} offset={offset} />
        <h2 className="section" id="edit-release">
          Edit release
        </h2>
        <EditReleaseForm key={r.updated_at} editing={r} update={update} />
      </>
    );
  }

  return (
    <>
      <p>
        {current.data ? (
          <Link to="/projects/$projectId/releases" params={{ projectId: current.data.project_id }}>
            ← Releases{owner.data ? ` of ${owner.data.name}` : ''}
          </Link>
        ) : (
          <BackToOrganizations />
        )}
      </p>
      <h1>{current.data ? current.data.name : 'Release'}</h1>
      {body}
    </>
  );
}

/** The release's runs, newest first, each linked to its page. */
function ReleaseRuns({ id, offset }: { id: string; offset: number }) {
  const page = useQuery(releaseRuns(id, { limit: RELEASE_RUNS_PAGE_SIZE, offset }));
  const state = listState(page, offset, {
    what: 'test runs',
    empty: <p>No test runs belong to this release yet.</p>,
    pastLast: (
      <PastLast to="/releases/$releaseId" params={{ releaseId: id }}>
        This page is past the last run.
      </PastLast>
    ),
  });
  if (state !== null || !page.isSuccess) return state;
  return (
    <>
      <RunsTable runs={page.data.data} labelledBy="release-runs" />
      <Pager
        pagination={page.data.pagination}
        to="/releases/$releaseId"
        params={{ releaseId: id }}
      />
    </>
  );
}
