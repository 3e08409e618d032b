import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/**
 * A page's top: the link back up, its title, and what acts on the whole page (a button, a
 * filter) beside the title.
 */
export function PageHead({
  back,
  title,
  actions,
}: {
  back: ReactNode;
  title: string;
  actions?: ReactNode;
}) {
  return (
    <>
      <p>{back}</p>
      {actions === undefined ? (
        <h1>{title}</h1>
      ) : (
        <div className="page-head">
          <h1>{title}</h1>
          {actions}
        </div>
      )}
    </>
  );
}

/** "Releases of Web shop" once the parent is read; "Releases" before, or when it is missing. */
export function titleOf(title: string, parent: { name: string } | undefined): string {
  return parent ? `${title} of ${parent.name}` : title;
}

/** Up to the organizations. */
export function BackToOrganizations() {
  return <Link to="/organizations">← Organizations</Link>;
}

/** Up to the projects of the project's organization, or to the organizations while it is unknown. */
export function BackToProjects({ project }: { project: { organization_id: string } | undefined }) {
  return project ? (
    <Link
      to="/organizations/$organizationId/projects"
      params={{ organizationId: project.organization_id }}
    >
      ← Projects
    </Link>
  ) : (
    <BackToOrganizations />
  );
}

/** Up to the project's test runs. */
export function BackToRuns({ projectId }: { projectId: string }) {
  return (
    <Link to="/projects/$projectId" params={{ projectId }}>
      ← Test runs
    </Link>
  );
}
