import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { organization } from '../../organizations/api/organizations';
import { organizationProjects } from '../api/projects';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { NewProjectDialog } from '../components/new-project-dialog';
import { OrganizationPageHead } from '../../shared/components/page-head';
import { utcDay } from '../../shared/formats';

const PROJECTS_PAGE_SIZE = 25;

/** An organization's projects, newest first, a page at a time. */
export function OrganizationProjectsPage({ id, offset }: { id: string; offset: number }) {
  const org = useQuery(organization(id));
  const page = useQuery(organizationProjects(id, { limit: PROJECTS_PAGE_SIZE, offset }));
  const [creating, setCreating] = useState(false);

  let body = listState(page, offset, {
    what: 'projects',
    missing: 'There is no such organization.',
    empty: <p>This organization has no projects yet.</p>,
    pastLast: (
      <PastLast to="/organizations/$organizationId/projects" params={{ organizationId: id }}>
        This page is past the last project.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <table>
          <caption className="visually-hidden">Projects, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Description</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  <Link to="/projects/$projectId" params={{ projectId: p.id }}>
                    {p.name}
                  </Link>
                </th>
                <td>
                  <code>{p.key}</code>
                </td>
                <td>{p.description ?? <span className="muted">—</span>}</td>
                <td>{utcDay.format(new Date(p.created_at))}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          pagination={page.data.pagination}
          to="/organizations/$organizationId/projects"
          params={{ organizationId: id }}
        />
      </>
    );
  }

  return (
    <>
      <OrganizationPageHead
        organizationId={id}
        organization={org.data}
        title="Projects"
        actions={
          org.isSuccess ? (
            <button type="button" onClick={() => setCreating(true)}>
              New project
            </button>
          ) : null
        }
      />
      {body}
      {creating ? (
        <NewProjectDialog organizationId={id} onClose={() => setCreating(false)} />
      ) : null}
    </>
  );
}
