import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { organizationsPage, sharedLimits } from '../api/organizations';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { UsageBar } from '../components/usage-bar';
import { PLAN_NAMES } from '../components/organization-form';
import { number, utcDay } from '../../shared/formats';

const ORGANIZATIONS_PAGE_SIZE = 25;

/** Every organization, newest first, a page at a time (`?offset=` makes a page shareable). */
export function OrganizationsPage({ offset }: { offset: number }) {
  const page = useQuery(organizationsPage({ limit: ORGANIZATIONS_PAGE_SIZE, offset }));
  const limits = useQuery(sharedLimits);

  let body = listState(page, offset, {
    what: 'organizations',
    empty: (
      <>
        <p>No organizations yet.</p>
        <Link to="/organizations/new">Create the first organization</Link>
      </>
    ),
    pastLast: <PastLast to="/organizations">This page is past the last organization.</PastLast>,
  });
  if (body === null && page.isSuccess) {
    const perMinute = limits.data ? number.format(limits.data.per_minute) : '…';
    body = (
      <>
        <table>
          <caption className="visually-hidden">Organizations, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Projects</th>
              <th scope="col">API keys</th>
              <th scope="col">Webhooks</th>
              <th scope="col">Plan</th>
              <th scope="col">Calls this month</th>
              <th scope="col">Resets</th>
              <th scope="col" className="number">
                Per minute
              </th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((org) => (
              <tr key={org.id}>
                <th scope="row">
                  <Link to="/organizations/$organizationId" params={{ organizationId: org.id }}>
                    {org.name}
                  </Link>
                </th>
                <td>
                  <Link
                    to="/organizations/$organizationId/projects"
                    params={{ organizationId: org.id }}
                    aria-label={`Projects of ${org.name}`}
                  >
                    Projects
                  </Link>
                </td>
                <td>
                  <Link
                    to="/organizations/$organizationId/api-keys"
                    params={{ organizationId: org.id }}
                    aria-label={`API keys of ${org.name}`}
                  >
                    API keys
                  </Link>
                </td>
                <td>
                  <Link
                    to="/organizations/$organizationId/webhooks"
                    params={{ organizationId: org.id }}
                    aria-label={`Webhooks of ${org.name}`}
                  >
                    Webhooks
                  </Link>
                </td>
                <td>{PLAN_NAMES[org.plan]}</td>
                <td>
                  <UsageBar used={org.calls_this_period} limit={org.monthly_call_limit} />
                </td>
                <td>{utcDay.format(new Date(org.period_reset_at))}</td>
                <td className="number">{perMinute}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager pagination={page.data.pagination} to="/organizations" />
      </>
    );
  }

  return (
    <>
      <div className="page-head">
        <h1>Organizations</h1>
        <Link to="/organizations/new" className="button">
          New organization
        </Link>
      </div>
      {body}
    </>
  );
}
