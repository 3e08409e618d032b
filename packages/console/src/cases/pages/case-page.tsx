import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { caseHistory, testCase, type CaseWithQuarantine } from '../api/cases';
import { Pager } from '../../shared/components/pager';
import {
  QuarantineDialog,
  QuarantineSummary,
  UnquarantineDialog,
} from '../components/quarantine-dialogs';
import { listState, Loading, readState } from '../../shared/components/states';
import { BackToOrganizations } from '../../shared/components/page-head';
import { ConfigurationStrips, StripLegend } from '../components/status-strip';
import { HistoryTable } from '../components/history-table';
import { duration, number } from '../../shared/formats';

/** uPlot comes in a chunk of its own, fetched when a case page first shows a chart. */
const DurationChart = lazy(() => import('../components/duration-chart'));

/** How many of the case's latest results the strip and the chart show. */
const HISTORY_PAGE_SIZE = 50;

/** A test case: its quarantine, and its latest results as a status strip and a duration chart. */
export function CasePage({ id, offset }: { id: string; offset: number }) {
  const current = useQuery(testCase(id));
  const history = useQuery(caseHistory(id, { limit: HISTORY_PAGE_SIZE, offset }));

  if (!current.isSuccess) {
    return readState(current, {
      what: 'the test case',
      missing: 'There is no such test case.',
      back: <BackToOrganizations />,
    });
  }
  const data = current.data;

  let results = listState(history, offset, {
    what: 'results',
    empty: <p>No results yet. They appear here as pipelines report this test case.</p>,
    pastLast: (
      <>
        <p>This page is past the oldest result.</p>
        <Link to="/cases/$caseId" params={{ caseId: id }}>
          Go to the latest results
        </Link>
      </>
    ),
  });
  if (results === null && history.isSuccess) {
    const items = history.data.data;
    const timed = items.filter((r) => r.duration_ms !== null).length;
    results = (
      <>
        <h3 id="strip-title">Status</h3>
        <ConfigurationStrips results={items} />
        <StripLegend results={items} />
        <h3 id="chart-title">Duration</h3>
        <figure className="chart" aria-labelledby="chart-title" aria-describedby="chart-summary">
          {timed > 0 ? (
            <Suspense fallback={<Loading what="the chart" />}>
              <DurationChart results={items} />
            </Suspense>
          ) : null}
          <figcaption id="chart-summary" className="muted">
            {durationSummary(items.map((r) => r.duration_ms))}
          </figcaption>
        </figure>
        <h3 id="history-title">Results, newest first</h3>
        <HistoryTable results={items} />
        <Pager pagination={history.data.pagination} to="/cases/$caseId" params={{ caseId: id }} />
      </>
    );
  }

  return (
    <>
      <p>
        <Link to="/projects/$projectId/cases" params={{ projectId: data.project_id }}>
          ← Test cases
        </Link>
      </p>
      <h1>{data.title}</h1>
      {data.automation_id !== null ? (
        <p className="automation-id">
          <code>{data.automation_id}</code>
        </p>
      ) : null}
      <QuarantineSection testCase={data} />
      <h2 className="section">{offset === 0 ? 'Latest results' : 'Older results'}, oldest first</h2>
      {results}
    </>
  );
}

/** "Fastest 80 ms, slowest 1.2 s, over 12 results with a duration." */
function durationSummary(durations: Array<number | null>): string {
  const known = durations.filter((d): d is number => d !== null);
  if (known.length === 0) return 'None of these results has a duration.';
  return `Fastest ${duration(Math.min(...known))}, slowest ${duration(Math.max(...known))}, over ${number.format(known.length)} results with a duration.`;
}

/** Whether the case is in quarantine, and the actions to change that. */
function QuarantineSection({ testCase: c }: { testCase: CaseWithQuarantine }) {
  const [dialog, setDialog] = useState<'quarantine' | 'release' | null>(null);
  const target = { projectId: c.project_id, testCaseId: c.id, title: c.title };
  return (
    <section className="card quarantine" aria-labelledby="quarantine-heading">
      <h2 id="quarantine-heading">Quarantine</h2>
      <p data-testid="quarantine-state">
        {c.quarantine ? <QuarantineSummary entry={c.quarantine} /> : 'Not in quarantine.'}
      </p>
      <div className="actions">
        <button type="button" onClick={() => setDialog('quarantine')}>
          {c.quarantine ? 'Change quarantine' : 'Quarantine'}
        </button>
        {c.quarantine ? (
          <button type="button" className="secondary" onClick={() => setDialog('release')}>
            Take out of quarantine
          </button>
        ) : null}
      </div>
      {dialog === 'quarantine' ? (
        <QuarantineDialog target={target} current={c.quarantine} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'release' ? (
        <UnquarantineDialog target={target} onClose={() => setDialog(null)} />
      ) : null}
    </section>
  );
}
