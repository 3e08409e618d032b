import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ApiFailure } from '../api/client';
import { runResults, testRun, useLiveRun, type LiveState, type ResultStatus } from '../api/runs';
import { Pager } from '../components/pager';
import {
  CountTiles,
  RESULT_STATUS_NAMES,
  ResultStatusBadge,
  RunStatus,
} from '../components/run-counts';
import { listState, LoadError, Loading, Missing } from '../components/states';
import { StatusFilter } from '../components/status-filter';

export const RESULTS_PAGE_SIZE = 50;

const number = new Intl.NumberFormat('en');
const time = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});

const LIVE_TEXT: Record<LiveState, string> = {
  connecting: 'Connecting to live updates…',
  live: 'Live: counts update as results arrive',
  stopped: 'Live updates stopped',
};

function Duration({ ms }: { ms: number | null }) {
  if (ms === null) return <span className="muted">—</span>;
  return <>{ms < 1000 ? `${number.format(ms)} ms` : `${number.format(ms / 1000)} s`}</>;
}

/** A test run: its counts, live while the page is open, and its results, a page at a time. */
export function RunPage({
  id,
  offset,
  status,
}: {
  id: string;
  offset: number;
  status?: ResultStatus;
}) {
  const navigate = useNavigate();
  const run = useQuery(testRun(id));
  const live = useLiveRun(id);
  const results = useQuery(runResults(id, { limit: RESULTS_PAGE_SIZE, offset, status }));
  const filter: Record<string, string> = status ? { status } : {};

  if (run.isPending) return <Loading what="the test run" />;
  if (run.isError && run.error instanceof ApiFailure && run.error.status === 404) {
    return (
      <>
        <p>
          <Link to="/organizations">← Organizations</Link>
        </p>
        <Missing>There is no such test run.</Missing>
      </>
    );
  }
  if (run.isError) return <LoadError error={run.error} onRetry={() => run.refetch()} />;

  let table = listState(results, offset, {
    what: 'results',
    empty: (
      <p>
        {status
          ? `No ${RESULT_STATUS_NAMES[status].toLowerCase()} results in this run.`
          : 'No results yet. They appear here as the pipeline reports them.'}
      </p>
    ),
    pastLast: (
      <>
        <p>This page is past the last result.</p>
        <Link to="/runs/$runId" params={{ runId: id }} search={filter}>
          Go to the first page
        </Link>
      </>
    ),
  });
  if (table === null && results.isSuccess) {
    table = (
      <>
        <table className="results">
          <caption className="visually-hidden">Results of the run, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Test case</th>
              <th scope="col">Status</th>
              <th scope="col" className="number">
                Duration
              </th>
              <th scope="col">Message</th>
              <th scope="col">Reported (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {results.data.data.map((r) => (
              <tr key={r.id}>
                <th scope="row">
                  {r.test_case_title}
                  {r.flaky ? <span className="badge flaky">Flaky</span> : null}
                  {r.automation_id !== null && r.automation_id !== r.test_case_title ? (
                    <div className="automation-id">
                      <code>{r.automation_id}</code>
                    </div>
                  ) : null}
                </th>
                <td>
                  <ResultStatusBadge status={r.status} />
                </td>
                <td className="number">
                  <Duration ms={r.duration_ms} />
                </td>
                <td className="message">{r.message ?? <span className="muted">—</span>}</td>
                <td>{time.format(new Date(r.created_at))}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          pagination={results.data.pagination}
          to="/runs/$runId"
          params={{ runId: id }}
          search={filter}
        />
      </>
    );
  }

  const data = run.data;
  return (
    <>
      <p>
        <Link to="/projects/$projectId" params={{ projectId: data.project_id }}>
          ← Test runs
        </Link>
      </p>
      <div className="title-row">
        <h1>{data.name}</h1>
        <RunStatus status={data.status} />
      </div>
      <p className={`live live-${live.state}`} role="status">
        {LIVE_TEXT[live.state]}
        {live.state === 'stopped' ? (
          <>
            {' '}
            <button type="button" className="secondary" onClick={live.reconnect}>
              Reconnect
            </button>
          </>
        ) : null}
      </p>
      <CountTiles counts={data.counts} />
      <div className="page-head">
        <h2>Results</h2>
        <StatusFilter
          label="Status"
          value={status}
          names={RESULT_STATUS_NAMES}
          onChange={(next) =>
            void navigate({
              to: '/runs/$runId',
              params: { runId: id },
              search: next ? { status: next } : {},
            })
          }
        />
      </div>
      {table}
    </>
  );
}
