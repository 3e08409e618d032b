import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { buildQueue, type Build } from '../api/builds';
import { organization } from '../../organizations/api/organizations';
import { organizationProjects } from '../../projects/api/projects';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { OrganizationPageHead } from '../../shared/components/page-head';
import { utcMinute } from '../../shared/formats';
import { AssignDialog, CHOICES } from '../components/assign-build-dialog';

const QUEUE_PAGE_SIZE = 25;

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
