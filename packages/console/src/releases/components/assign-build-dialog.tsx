import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useAssignBuild, type Build } from '../api/builds';
import { organizationProjects } from '../../projects/api/projects';
import { projectReleases } from '../api/releases';
import { FormDialog } from '../../shared/components/dialogs';
import { RELEASE_STATUS_NAMES } from './release-progress';

/** The most the internal API lists in one page: the choices of the assign dialog. */
export const CHOICES = { limit: 100, offset: 0 };

/**
 * A project of the organization (the build's own first), then one of its releases. The
 * service decides whether the build may go there: its refusal shows in the dialog.
 */
export function AssignDialog({
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
