import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { buildQueue, useAssignBuild, type Build } from '../api/builds';
import { organization } from '../../organizations/api/organizations';
import { organizationProjects } from '../../projects/api/projects';
import { projectReleases } from '../api/releases';
import { FormDialog } from '../../shared/components/dialogs';
import { Pager } from '../../shared/components/pager';
import { RELEASE_STATUS_NAMES } from '../components/release-progress';
import { listState, PastLast } from '../../shared/components/states';
import { OrganizationPageHead } from '../../shared/components/page-head';
import { utcMinute } from '../../shared/formats';

export const QUEUE_PAGE_SIZE = 25;
/** The most the internal API lists in one page: the choices of the assign dialog. */
const CHOICES = { limit: 100, offset: 0 };

/** An organization's planned builds in queue order, each to be assigned to a release. */
export function OrganizationBuildQueuePage({ id, offset }: { id: string; offset: number }) {
  const org = useQuery(organization(id));
  const page = useQuery(buildQueue(id, { limit: QUEUE_PAGE_SIZE, offset }));
  const projects = useQuery(organizationProjects(id, CHOICES));
  const [assigning, setAssigning] = useState<Build | null>(null);
  const projectName = (projectId: string | null) =>
    projects.data?.data.find((p) => p.id === projectId)?.name;

  let body = listState(page, offset, {
    what: 'the build queue',
    missing: 'There is no such organization.',
    empty: <p>No build waits for a release: the queue is empty.</p>,
    pastLast: (
      <PastLast to="/organizations/$organizationId/build-queue" params={{ organizationId: id }}>
        This page is past the end of the queue.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <table>
          <caption className="visually-hidden">Planned builds in queue order</caption>
          <thead>
            <tr>
              <th scope="col" className="number">
                Position
              </th>
              <th scope="col">Build</th>
              <th scope="col">Number</th>
              <th scope="col">Branch</th>
              <th scope="col">Commit</th>
              <th scope="col">Project</th>
              <th scope="col">Registered (UTC)</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((build) => (
              <tr key={build.id}>
                <td className="number">{build.queue_position}</td>
                <th scope="row">{build.name}</th>
                <td>{build.build_number ?? <span className="muted">—</span>}</td>
                <td>{build.branch ?? <span className="muted">—</span>}</td>
                <td>
                  {build.commit_sha ? (
                    <code title={build.commit_sha}>{build.commit_sha.slice(0, 10)}</code>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td>
                  {build.project_id ? (
                    <Link to="/projects/$projectId" params={{ projectId: build.project_id }}>
                      {projectName(build.project_id) ?? 'Project'}
                    </Link>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td>{utcMinute.format(new Date(build.created_at))}</td>
                <td>
                  <button type="button" className="secondary" onClick={() => setAssigning(build)}>
                    Assign<span className="visually-hidden"> {build.name}</span> to a release
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          pagination={page.data.pagination}
          to="/organizations/$organizationId/build-queue"
          params={{ organizationId: id }}
        />
      </>
    );
  }

  return (
    <>
      <OrganizationPageHead organizationId={id} organization={org.data} title="Build queue" />
      {body}
      {assigning ? (
        <AssignDialog organizationId={id} build={assigning} onClose={() => setAssigning(null)} />
      ) : null}
    </>
  );
}

/**
 * A project of the organization (the build's own first), then one of its releases. The
 * service decides whether the build may go there: its refusal shows in the dialog.
 */
function AssignDialog({
  organizationId,
  build,
  onClose,
}: {
  organizationId: string;
  build: Build;
  onClose: () => void;
}) {
  const assign = useAssignBuild();
  const projects = useQuery(organizationProjects(organizationId, CHOICES));
  const [chosenProject, setChosenProject] = useState<string | null>(build.project_id);
  const projectId = chosenProject ?? projects.data?.data[0]?.id ?? null;
  const releases = useQuery({
    ...projectReleases(projectId ?? '', CHOICES),
    enabled: projectId !== null,
  });
  const [chosenRelease, setChosenRelease] = useState<string | null>(null);
  const releaseId =
    releases.data?.data.find((r) => r.id === chosenRelease)?.id ??
    releases.data?.data[0]?.id ??
    null;

  const submit = () => {
    if (releaseId === null) return;
    assign.mutate({ buildId: build.id, releaseId }, { onSuccess: onClose });
  };

  let releaseChoice;
  if (projectId === null) {
    releaseChoice = <p className="muted">This organization has no projects, so no releases.</p>;
  } else if (releases.isPending) {
    releaseChoice = <p role="status">Loading releases…</p>;
  } else if (releases.isError) {
    releaseChoice = (
      <p className="form-error" role="alert">
        Could not load the releases: {releases.error.message}
      </p>
    );
  } else if (releases.data.data.length === 0) {
    releaseChoice = (
      <p className="muted">
        This project has no releases.{' '}
        <Link to="/projects/$projectId/releases" params={{ projectId }}>
          Create one
        </Link>
      </p>
    );
  } else {
    releaseChoice = (
      <>
        <label htmlFor="assign-release">Release</label>
        <select
          id="assign-release"
          name="release_id"
          value={releaseId ?? ''}
          onChange={(event) => setChosenRelease(event.target.value)}
        >
          {releases.data.data.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
              {r.version ? ` (${r.version})` : ''} — {RELEASE_STATUS_NAMES[r.status]}
            </option>
          ))}
        </select>
      </>
    );
  }

  return (
    <FormDialog
      titleId="assign-title"
      title={`Assign “${build.name}” to a release`}
      call={assign}
      action={{ label: 'Assign', pending: 'Assigning…' }}
      ready={releaseId !== null}
      onSubmit={submit}
      onClose={onClose}
    >
      <label htmlFor="assign-project">Project</label>
      <select
        id="assign-project"
        name="project"
        value={projectId ?? ''}
        disabled={!projects.isSuccess}
        onChange={(event) => {
          setChosenProject(event.target.value);
          setChosenRelease(null);
        }}
        data-autofocus
      >
        {projects.data?.data.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      {releaseChoice}
    </FormDialog>
  );
}
