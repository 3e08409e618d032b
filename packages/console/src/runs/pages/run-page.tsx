import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { runResults, testRun, useLiveRun, type Result, type ResultStatus } from '../api/runs';
import { Pager } from '../../shared/components/pager';
import {
  CountTiles,
  RESULT_STATUS_NAMES,
  ResultStatusBadge,
  RunStatus,
} from '../components/run-counts';
import { listState, PastLast, readState } from '../../shared/components/states';
import { BackToOrganizations } from '../../shared/components/page-head';
import { StatusFilter } from '../../shared/components/status-filter';
import {
  CompleteRunDialog,
  SubmitResultDialog,
  type ReportedCase,
} from '../components/run-actions';
import { ComparisonSection, FailuresSection, GatePanel } from '../components/run-insights';
import { LiveStatus } from '../components/live-status';
import { duration, utcSecond } from '../../shared/formats';
import { BackToRuns } from '../../shared/components/page-head';
import { RUN_TABS, type RunTab, type RunView } from '../run-view';

export const RESULTS_PAGE_SIZE = 50;

function Duration({ ms }: { ms: number | null }) {
  if (ms === null) return <span className="muted">—</span>;
  return <>{duration(ms)}</>;
}

/** The search parameters of a results view (the first page unless `offset`). */
function resultsSearch(view: { status?: ResultStatus; q?: string }): Record<string, string> {
  return {
    ...(view.status ? { status: view.status } : {}),
    ...(view.q ? { q: view.q } : {}),
  };
}

/**
 * A test run: its counts, live while the page is open, its quality gate, and three tabs: its
 * results (filtered, searched, a page at a time), its failures grouped by cause and its
 * comparison with its baseline. Results can be submitted and the run completed from here.
 */
export function RunPage({ id, view }: { id: string; view: RunView }) {
  const run = useQuery(testRun(id));
  // A completed run changes no more: nothing to follow (its status comes from the service).
  const live = useLiveRun(id, run.data?.status !== 'completed');
  const [reporting, setReporting] = useState<ReportedCase | 'any' | null>(null);
  const [completing, setCompleting] = useState(false);
  const [notice, setNotice] = useState('');

  if (!run.isSuccess) {
    return readState(run, {
      what: 'the test run',
      missing: 'There is no such test run.',
      back: <BackToOrganizations />,
    });
  }

  const data = run.data;
  return (
    <>
      <p>
        <BackToRuns projectId={data.project_id} />
      </p>
      <div className="page-head">
        <div className="title-row">
          <h1>{data.name}</h1>
          <RunStatus status={data.status} />
        </div>
        <div className="run-actions">
          <button type="button" className="secondary" onClick={() => setReporting('any')}>
            Submit result
          </button>
          <button type="button" onClick={() => setCompleting(true)}>
            Complete run
          </button>
        </div>
      </div>
      <LiveStatus stream={live} live="Live: counts update as results arrive" />
      <p className="notice" role="status">
        {notice}
      </p>
      <CountTiles counts={data.counts} />
      <GatePanel runId={id} />
      <nav className="section-tabs" aria-label="Run sections">
        {(Object.keys(RUN_TABS) as RunTab[]).map((tab) => (
          <Link
            key={tab}
            to="/runs/$runId"
            params={{ runId: id }}
            search={{ tab: tab === 'results' ? undefined : tab }}
            // Active (aria-current) on its own tab only: `tab` as in the URL, undefined too.
            activeOptions={{ includeSearch: true, explicitUndefined: true }}
          >
            {RUN_TABS[tab]}
          </Link>
        ))}
      </nav>
      {view.tab === 'results' ? (
        <ResultsSection id={id} view={view} onReport={(c) => setReporting(c)} />
      ) : null}
      {view.tab === 'failures' ? <FailuresSection runId={id} offset={view.offset} /> : null}
      {view.tab === 'comparison' ? <ComparisonSection runId={id} /> : null}
      {reporting ? (
        <SubmitResultDialog
          runId={id}
          reported={reporting === 'any' ? null : reporting}
          onClose={() => setReporting(null)}
          onSubmitted={(text) => {
            setReporting(null);
            setNotice(text);
          }}
        />
      ) : null}
      {completing ? (
        <CompleteRunDialog
          run={data}
          onClose={() => setCompleting(false)}
          onCompleted={() => {
            setCompleting(false);
            setNotice('The run is completed.');
          }}
        />
      ) : null}
    </>
  );
}

/** The results tab: a status filter, a search by title or automation id, and the table. */
function ResultsSection({
  id,
  view,
  onReport,
}: {
  id: string;
  view: RunView;
  onReport: (reported: ReportedCase) => void;
}) {
  const navigate = useNavigate();
  const { offset, status, q } = view;
  const results = useQuery(runResults(id, { limit: RESULTS_PAGE_SIZE, offset, status, q }));
  const filter = resultsSearch(view);
  const described = (what: string) => (q ? `${what} matching “${q}”` : what);

  let table = listState(results, offset, {
    what: 'results',
    empty: (
      <p>
        {status || q
          ? `No ${described(status ? `${RESULT_STATUS_NAMES[status].toLowerCase()} results` : 'results')} in this run.`
          : 'No results yet. They appear here as the pipeline reports them.'}
      </p>
    ),
    pastLast: (
      <PastLast to="/runs/$runId" params={{ runId: id }} search={filter}>
        This page is past the last result.
      </PastLast>
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
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {results.data.data.map((r) => (
              <tr key={r.id}>
                <th scope="row">
                  {r.test_case_title}
                  <Markers result={r} />
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
                <td>{utcSecond.format(new Date(r.created_at))}</td>
                <td>
                  <button
                    type="button"
                    className="secondary small"
                    aria-label={`Report a result for ${r.test_case_title}`}
                    onClick={() =>
                      onReport({
                        id: r.test_case_id,
                        title: r.test_case_title,
                        automationId: r.automation_id,
                      })
                    }
                  >
                    Report
                  </button>
                </td>
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

  return (
    <section aria-labelledby="results-title">
      <div className="page-head">
        <h2 id="results-title">Results</h2>
        <div className="filters">
          <SearchBox
            key={q ?? ''}
            value={q}
            onSearch={(next) =>
              void navigate({
                to: '/runs/$runId',
                params: { runId: id },
                search: resultsSearch({ status, q: next }),
              })
            }
          />
          <StatusFilter
            label="Status"
            value={status}
            names={RESULT_STATUS_NAMES}
            onChange={(next) =>
              void navigate({
                to: '/runs/$runId',
                params: { runId: id },
                search: resultsSearch({ status: next, q }),
              })
            }
          />
        </div>
      </div>
      {table}
    </section>
  );
}

/** Flaky: this result passed after retries, or its case is on the flaky list; quarantined. */
function Markers({ result }: { result: Result }) {
  return (
    <>
      {result.flaky || result.case_flaky ? (
        <span
          className="badge flaky"
          title={
            result.case_flaky ? 'On the project’s flaky-tests list' : 'Passed after failed attempts'
          }
        >
          Flaky
        </span>
      ) : null}
      {result.quarantined ? (
        <span className="badge quarantined" title="Its failures do not fail the quality gate">
          Quarantined
        </span>
      ) : null}
    </>
  );
}

/** Searches the test cases' titles and automation ids: Enter or the button applies it. */
function SearchBox({
  value,
  onSearch,
}: {
  value: string | undefined;
  onSearch: (q: string | undefined) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    onSearch(trimmed === '' ? undefined : trimmed);
  };
  return (
    <form role="search" className="filter" onSubmit={submit}>
      <label htmlFor={id}>Search</label>
      <input
        id={id}
        type="search"
        name="q"
        maxLength={255}
        placeholder="Title or automation id"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="secondary">
        Search
      </button>
      {value ? (
        <button type="button" className="secondary" onClick={() => onSearch(undefined)}>
          Clear
        </button>
      ) : null}
    </form>
  );
}
