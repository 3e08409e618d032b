import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { organization } from '../../organizations/api/organizations';
import { OrganizationPageHead } from '../../shared/components/page-head';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { utcMinute } from '../../shared/formats';
import { caseSearch } from '../api/search';
import { SearchForm } from '../components/search-form';

const PAGE_SIZE = 25;

/**
 * "Where is this test?": the organization's test cases, in every project, whose title or
 * automation id contains the search, by title, each linked to its history and its project.
 */
export function CaseSearchPage({ id, q, offset }: { id: string; q?: string; offset: number }) {
  const navigate = useNavigate();
  const current = useQuery(organization(id));
  const page = useQuery({
    ...caseSearch(id, { limit: PAGE_SIZE, offset, q: q ?? '' }),
    enabled: q !== undefined,
  });
  const search: Record<string, string> = q ? { q } : {};

  let body = null;
  if (q !== undefined) {
    body = listState(page, offset, {
      what: 'the test cases found',
      missing: 'There is no such organization.',
      empty: <p>{`No test case’s title or automation id contains “${q}”.`}</p>,
      pastLast: (
        <PastLast
          to="/organizations/$organizationId/search"
          params={{ organizationId: id }}
          search={search}
        >
          This page is past the last test case found.
        </PastLast>
      ),
    });
    if (body === null && page.isSuccess) {
      body = (
        <>
          <table className="found-cases">
            <caption className="visually-hidden">{`Test cases matching “${q}”, by title`}</caption>
            <thead>
              <tr>
                <th scope="col">Test case</th>
                <th scope="col">Project</th>
                <th scope="col">Changed (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((found) => (
                <tr key={found.id}>
                  <th scope="row">
                    <Link to="/cases/$caseId" params={{ caseId: found.id }}>
                      {found.title}
                    </Link>
                    {found.automation_id !== null && found.automation_id !== found.title ? (
                      <div className="automation-id">
                        <code>{found.automation_id}</code>
                      </div>
                    ) : null}
                  </th>
                  <td>
                    <Link to="/projects/$projectId" params={{ projectId: found.project_id }}>
                      {found.project_name}
                    </Link>{' '}
                    <span className="muted">({found.project_key})</span>
                  </td>
                  <td>{utcMinute.format(new Date(found.updated_at))}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            pagination={page.data.pagination}
            to="/organizations/$organizationId/search"
            params={{ organizationId: id }}
            search={search}
          />
        </>
      );
    }
  }

  return (
    <>
      <OrganizationPageHead organizationId={id} organization={current.data} title="Test search" />
      <SearchForm
        key={q ?? ''}
        label="Title or automation id"
        hint="Searches the test cases of every project of the organization; case aside."
        value={q}
        onSearch={(next) =>
          void navigate({
            to: '/organizations/$organizationId/search',
            params: { organizationId: id },
            search: { q: next },
          })
        }
      />
      {body}
    </>
  );
}
