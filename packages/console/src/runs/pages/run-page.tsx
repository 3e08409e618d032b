import { useQuery } from '@tanstack/react-query';
import { ExportCsvLink } from '../../shared/components/export-csv-link';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { testRun, useLiveRun } from '../api/runs';
import { CountTiles, RunStatus } from '../components/run-counts';
import { readState } from '../../shared/components/states';
import { BackToOrganizations, BackToRuns } from '../../shared/components/page-head';
import {
  CompleteRunDialog,
  ReopenRunDialog,
  SubmitResultDialog,
  type ReportedCase,
} from '../components/run-actions';
import { ComparisonSection } from '../components/comparison-section';
import { FailuresSection } from '../components/failures-section';
import { GatePanel } from '../components/gate-panel';
import { LiveStatus } from '../components/live-status';
import { ResultsSection } from '../components/results-section';
import { RUN_TABS, type RunTab, type RunView } from '../run-view';

/**
 * A test run: its counts, live while the page is open, its quality gate, and three tabs: its
 * results (filtered, searched, a page at a time), its failures grouped by cause and its
 * comparison with its baseline. Results can be submitted and the run completed from here; a
 * completed run, which takes no results, offers only to be reopened.
 */
export function RunPage({ id, view }: { id: string; view: RunView }) {
  const run = useQuery(testRun(id));
  // A completed run changes no more: nothing to follow (its status comes from the service).
  const live = useLiveRun(id, run.data?.status !== 'completed');
  const [reporting, setReporting] = useState<ReportedCase | 'any' | null>(null);
  const [moving, setMoving] = useState<'complete' | 'reopen' | null>(null);
  const [notice, setNotice] = useState('');

  if (!run.isSuccess) {
    return readState(run, {
      what: 'the test run',
      missing: 'There is no such test run.',
      back: <BackToOrganizations />,
    });
  }

  const data = run.data;
  const completed = data.status === 'completed';
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
          <ExportCsvLink
            href={`/internal/v1/testruns/${encodeURIComponent(id)}/results/export`}
            what="this run’s results"
          />
          {completed ? (
            <button type="button" className="secondary" onClick={() => setMoving('reopen')}>
              Reopen run
            </button>
          ) : (
            <>
              <button type="button" className="secondary" onClick={() => setReporting('any')}>
                Submit result
              </button>
              <button type="button" onClick={() => setMoving('complete')}>
                Complete run
              </button>
            </>
          )}
        </div>
      </div>
      <LiveStatus stream={live} live="Live: counts update as results arrive" />
      <p className="notice" role="status">
        {notice}
      </p>
      <CountTiles counts={data.counts} />
      <GatePanel run={data} />
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
        <ResultsSection
          id={id}
          view={view}
          onReport={completed ? undefined : (c) => setReporting(c)}
        />
      ) : null}
      {view.tab === 'failures' ? <FailuresSection runId={id} offset={view.offset} /> : null}
      {view.tab === 'comparison' ? <ComparisonSection runId={id} /> : null}
      {reporting && !completed ? (
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
      {moving === 'complete' ? (
        <CompleteRunDialog
          run={data}
          onClose={() => setMoving(null)}
          onCompleted={() => {
            setMoving(null);
            setNotice('The run is completed.');
          }}
        />
      ) : null}
      {moving === 'reopen' ? (
        <ReopenRunDialog
          run={data}
          onClose={() => setMoving(null)}
          onReopened={() => {
            setMoving(null);
            setNotice('The run is reopened: it takes results again.');
          }}
        />
      ) : null}
    </>
  );
}
