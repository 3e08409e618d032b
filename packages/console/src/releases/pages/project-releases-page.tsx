import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiFailure } from '../../shared/api/client';
import { project } from '../../projects/api/projects';
import { projectReleases, useCreateRelease } from '../api/releases';
import { FormDialog } from '../../shared/components/dialogs';
import { Pager } from '../../shared/components/pager';
import {
  ReadinessBadge,
  ReleaseProgressBar,
  ReleaseStatusBadge,
} from '../components/release-progress';
import { listState, PastLast } from '../../shared/components/states';
import { BackToProjects, ProjectPageHead } from '../../shared/components/page-head';

const RELEASES_PAGE_SIZE = 25;

/** A project's releases, newest first: status, progress and readiness, a page at a time. */
export function ProjectReleasesPage({ id, offset }: { id: string; offset: number }) {
  const current = useQuery(project(id));
  const page = useQuery(projectReleases(id, { limit: RELEASES_PAGE_SIZE, offset }));
  const [creating, setCreating] = useState(false);

  let body = listState(page, offset, {
    what: 'releases',
    missing: 'There is no such project.',
    empty: <p>This project has no releases yet.</p>,
    pastLast: (
      <PastLast to="/projects/$projectId/releases" params={{ projectId: id }}>
        This page is past the last release.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <table>
          <caption className="visually-hidden">Releases, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Release</th>
              <th scope="col">Version</th>
              <th scope="col">Status</th>
              <th scope="col">Progress</th>
              <th scope="col">Readiness</th>
              <th scope="col">Target date</th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((r) => (
              <tr key={r.id}>
                <th scope="row">
                  <Link to="/releases/$releaseId" params={{ releaseId: r.id }}>
                    {r.name}
                  </Link>
                </th>
                <td>{r.version ?? <span className="muted">—</span>}</td>
                <td>
                  <ReleaseStatusBadge status={r.status} />
                </td>
                <td>
                  <ReleaseProgressBar progress={r.progress} />
                </td>
                <td>
                  <ReadinessBadge ready={r.progress.ready} />
                </td>
                <td>{r.target_date ?? <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          pagination={page.data.pagination}
          to="/projects/$projectId/releases"
          params={{ projectId: id }}
        />
      </>
    );
  }

  return (
    <>
      <ProjectPageHead
        projectId={id}
        project={current.data}
        title="Releases"
        back={<BackToProjects project={current.data} />}
        actions={
          current.isSuccess ? (
            <button type="button" onClick={() => setCreating(true)}>
              New release
            </button>
          ) : null
        }
      />
      {body}
      {creating ? <NewReleaseDialog projectId={id} onClose={() => setCreating(false)} /> : null}
    </>
  );
}

/** A release's name, version and target date; once created, its page opens. */
function NewReleaseDialog({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateRelease(projectId);
  const [name, setName] = useState('');
  const [version, setVersion] = useState('');
  const [targetDate, setTargetDate] = useState('');
  const failedField = create.error instanceof ApiFailure ? create.error.field : undefined;

  const submit = () => {
    create.mutate(
      {
        name,
        ...(version ? { version } : {}),
        ...(targetDate ? { target_date: targetDate } : {}),
      },
      {
        onSuccess: (made) =>
          void navigate({ to: '/releases/$releaseId', params: { releaseId: made.id } }),
      },
    );
  };

  return (
    <FormDialog
      titleId="new-release-title"
      title="New release"
      call={create}
      action={{ label: 'Create release', pending: 'Creating…' }}
      onSubmit={submit}
      onClose={onClose}
    >
      <label htmlFor="release-name">Name</label>
      <input
        id="release-name"
        name="name"
        required
        value={name}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={failedField === 'name' || undefined}
        data-autofocus
      />
      <label htmlFor="release-version">Version (optional)</label>
      <input
        id="release-version"
        name="version"
        value={version}
        onChange={(event) => setVersion(event.target.value)}
        aria-invalid={failedField === 'version' || undefined}
      />
      <label htmlFor="release-target">Target date (optional)</label>
      <input
        id="release-target"
        name="target_date"
        type="date"
        value={targetDate}
        onChange={(event) => setTargetDate(event.target.value)}
        aria-invalid={failedField === 'target_date' || undefined}
      />
    </FormDialog>
  );
}
