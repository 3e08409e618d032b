import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { overviewTrend, TREND_RUNS, type OverviewRun, type Series } from '../api/overview';
import { LoadError, Loading } from '../../shared/components/states';
import { longDuration, number, percentToTenths, utcMinute } from '../../shared/formats';
import type { TrendMeasure } from './trend-chart';

/** uPlot comes in a chunk of its own, fetched when the overview first draws a trend. */
const TrendChart = lazy(() => import('./trend-chart'));

const failures = (run: OverviewRun) => run.counts.failed + run.counts.blocked;

/** What the trends chart, each with its own figure. */
export const TREND_MEASURES: Array<TrendMeasure & { id: string }> = [
  {
    id: 'pass-rate',
    label: 'Pass rate',
    value: (run) => run.pass_rate,
    format: (v) => percentToTenths.format(v),
    colour: '#1e7b3a',
    bounds: [0, 1],
  },
  {
    id: 'failures',
    label: 'Failures',
    value: failures,
    format: (v) => number.format(v),
    colour: '#b3261e',
    whole: true,
  },
  {
    id: 'flaky',
    label: 'Flaky results',
    value: (run) => run.counts.flaky,
    format: (v) => number.format(v),
    colour: '#9a5b00',
    whole: true,
  },
  {
    id: 'duration',
    label: 'Duration',
    value: (run) => run.duration_ms,
    format: (v) => longDuration(Math.round(v)),
    colour: '#0b57d0',
  },
];

/** "nightly on main", "smoke on any branch". */
export function seriesName(series: Series): string {
  return `${series.name} on ${series.branch ?? 'any branch'}`;
}

/**
 * A series' latest runs as four trends (pass rate, failures, flaky results, duration), each a
 * chart named for what it shows, and the same numbers as a table beneath.
 */
export function TrendsSection({ projectId, series }: { projectId: string; series: Series }) {
  const trend = useQuery(overviewTrend(projectId, series));
  let body;
  if (trend.isPending) body = <Loading what="the trends" />;
  else if (trend.isError)
    body = <LoadError error={trend.error} onRetry={() => void trend.refetch()} />;
  else if (trend.data.runs.length === 0)
    body = <p>No submitted or completed run of {seriesName(series)} yet.</p>;
  else {
    const runs = trend.data.runs;
    const span = `the last ${runs.length === 1 ? 'run' : `${number.format(runs.length)} runs`}`;
    body = (
      <>
        <p className="muted">
          {seriesName(series)}: {span} submitted or completed, oldest first
          {runs.length < TREND_RUNS ? '' : ` (at most ${TREND_RUNS})`}.
        </p>
        <div className="trend-grid">
          {TREND_MEASURES.map((measure) => (
            <figure
              key={measure.id}
              className="chart"
              aria-labelledby={`trend-${measure.id}`}
              data-trend={measure.id}
            >
              <h3 id={`trend-${measure.id}`} className="chart-title">
                {measure.label} over {span}
              </h3>
              <Suspense fallback={<Loading what="the chart" />}>
                <TrendChart runs={runs} measure={measure} />
              </Suspense>
            </figure>
          ))}
        </div>
        <TrendTable runs={runs} />
      </>
    );
  }
  return (
    <section className="overview-section" aria-labelledby="trends-title">
      <h2 id="trends-title">Trends</h2>
      {body}
    </section>
  );
}

/** The trends' numbers, run by run, newest first: the charts' alternative. */
function TrendTable({ runs }: { runs: OverviewRun[] }) {
  return (
    <details className="trend-table">
      <summary>The trends as a table</summary>
      <table aria-label="Trends, run by run">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Build</th>
            <th scope="col">Created (UTC)</th>
            <th scope="col">Pass rate</th>
            <th scope="col">Failures</th>
            <th scope="col">Flaky</th>
            <th scope="col">Duration</th>
          </tr>
        </thead>
        <tbody>
          {[...runs].reverse().map((run) => (
            <tr key={run.id}>
              <th scope="row">
                <Link to="/runs/$runId" params={{ runId: run.id }}>
                  {run.name}
                </Link>
              </th>
              <td>{run.build?.build_number ?? run.build?.name ?? '—'}</td>
              <td>{utcMinute.format(new Date(run.created_at))}</td>
              <td className="number" data-measure="pass-rate">
                {run.pass_rate === null ? '—' : percentToTenths.format(run.pass_rate)}
              </td>
              <td className="number" data-measure="failures">
                {number.format(failures(run))}
              </td>
              <td className="number" data-measure="flaky">
                {number.format(run.counts.flaky)}
              </td>
              <td className="number" data-measure="duration">
                {run.duration_ms === null ? '—' : longDuration(run.duration_ms)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
