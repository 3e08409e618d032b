import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { project } from '../../projects/api/projects';
import { ResultStatusBadge } from '../../runs/components/run-counts';
import { BackToRuns, ProjectPageHead } from '../../shared/components/page-head';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { utcMinute } from '../../shared/formats';
import { failureSearch } from '../api/search';
import { SearchForm } from '../components/search-form';
import { SEARCHED_RUNS, type SearchedRuns } from '../search-view';

const PAGE_SIZE = 25;

/**
 * "What failed with this error lately?": the current results of the project's latest runs
 * whose message or failure type contains the search, case and accents aside, newest run
 * first, each linked to its result and its run.
 */
export function FailureSearchPage({
  id,
  q,
  runs,
  offset,
}: {
  id: string;
  q?: string;
  runs: SearchedRuns;
  offset: number;
}) {
  const navigate = useNavigate();
  const runsId = useId();
  const current = useQuery(project(id));
  const page = useQuery({
    ...failureSearch(id, { limit: PAGE_SIZE, offset, q: q ?? '', runs }),
    enabled: q !== undefined,
  });
  // What links keep of the URL; 10 runs, the default, is left out.
  const search: Record<string, string> = {
    ...(q ? { q } : {}),
    ...(runs === SEARCHED_RUNS[0] ? {} : { runs: String(runs) }),
  };
  const show = (next: { q?: string; runs: SearchedRuns }) =>
    void navigate({
      to: '/projects/$projectId/failures',
      params: { projectId: id },
      search: { q: next.q, runs: next.runs === SEARCHED_RUNS[0] ? undefined : next.runs },
    });

  let body = null;
  if (q !== undefined) {
    body = listState(page, offset, {
      what: 'the results found',
      missing: 'There is no such project.',
      empty: <p>{`No result of the latest ${runs} runs has an error containing “${q}”.`}</p>,
      pastLast: (
        <PastLast to="/projects/$projectId/failures" params={{ projectId: id }} search={search}>
          This page is past the last result found.
        </PastLast>
      ),
    });
    if (body === null && page.isSuccess) {
      body = (
        <>
          <table className="found-failures">
            <caption className="visually-hidden">{`Results whose error contains “${q}”, newest run first`}</caption>
            <thead>
              <tr>
                <th scope="col">Test case</th>
                <th scope="col">Status</th>
                <th scope="col">Error</th>
                <th scope="col">Run</th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((found) => (
                <tr key={found.result_id}>
                  <th scope="row">
                    <Link to="/results/$resultId" params={{ resultId: found.result_id }}>
                      {found.title}
                    </Link>
                    {found.configuration === null ? null : (
                      <span className="configurations">{found.configuration}</span>
                    )}
                  </th>
                  <td>
                    <ResultStatusBadge status={found.status} />
                  </td>
                  <td className="error-text">
                    {found.failure_type === null ? null : <code>{found.failure_type}</code>}
                    {found.message === null ? null : (
                      <span className="message">{found.message}</span>
                    )}
                  </td>
                  <td>
                    <Link to="/runs/$runId" params={{ runId: found.test_run_id }}>
                      {found.run_name}
                    </Link>
                    <span className="configurations">
                      {utcMinute.format(new Date(found.run_created_at))} UTC
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            pagination={page.data.pagination}
            to="/projects/$projectId/failures"
            params={{ projectId: id }}
            search={search}
          />
        </>
      );
    }
  }

  return (
    <>
      <ProjectPageHead
        projectId={id}
        project={current.data}
        title="Failure search"
        back={<BackToRuns projectId={id} />}
        actions={
          <div className="filter">
            <label htmlFor={runsId}>Runs searched</label>
            <select
              id={runsId}
              value={runs}
              onChange={(e) => show({ q, runs: Number(e.target.value) as SearchedRuns })}
            >
              {SEARCHED_RUNS.map((n) => (
                <option key={n} value={n}>
                  Latest {n}
                </option>
              ))}
            </select>
          </div>
        }
      />
      <SearchForm
        key={q ?? ''}
        label="Error text"
        hint={`Searches the messages and failure types of the results that did not pass in the latest ${runs} runs; case and accents aside (“naive” finds “naïve”).`}
        value={q}
        onSearch={(next) => show({ q: next, runs })}
      />
      {body}
    </>
  );
}
