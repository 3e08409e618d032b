import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { OrganizationNav } from './organization-nav';
import { ProjectNav } from './project-nav';

/**
 * A page's top: the link back up, its title, and what acts on the whole page (a button, a
 * filter) beside the title.
 */
function PageHead({
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
function titleOf(title: string, parent: { name: string } | undefined): string {
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
    <Link to="/projects/$projectId/runs" params={{ projectId }}>
      ← Test runs
    </Link>
  );
}

/** The head of one of an organization's pages: up to the organizations, "API keys of Shop", tabs. */
export function OrganizationPageHead({
  organizationId,
  organization,
  title,
  actions,
}: {
  organizationId: string;
  organization: { name: string } | undefined;
  title: string;
  actions?: ReactNode;
}) {
  return (
    <>
      <PageHead
        back={<BackToOrganizations />}
        title={titleOf(title, organization)}
        actions={actions}
      />
      <OrganizationNav organizationId={organizationId} />
    </>
  );
}

/** The head of one of a project's pages: the link back up, "Releases of Web shop", tabs. */
export function ProjectPageHead({
  projectId,
  project,
  title,
  back,
  actions,
}: {
  projectId: string;
  project: { name: string } | undefined;
  title: string;
  back: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <>
      <PageHead back={back} title={titleOf(title, project)} actions={actions} />
      <ProjectNav projectId={projectId} />
    </>
  );
}
