import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { overviewTrend, type Series } from '../api/overview';
import { runComparison, type Comparison } from '../../runs/api/run-insights';
import { LoadError, Loading } from '../../shared/components/states';
import { number, utcMinute } from '../../shared/formats';
import { seriesName } from './trends-section';

const SUMMARY: Array<[keyof Comparison['summary'], string]> = [
  ['new_failures', 'New failures'],
  ['still_failing', 'Still failing'],
  ['fixed', 'Fixed'],
  ['new_tests', 'New tests'],
  ['missing_tests', 'Missing tests'],
];

/** How many new failures the overview names; the run's comparison tab has them all. */
const NAMED = 5;

/**
 * What changed in the series' latest run since the previous one like it (its comparison with
 * its default baseline, CONTRACT §12): the counts, and the first new failures by name.
 */
export function ChangesSection({ projectId, series }: { projectId: string; series: Series }) {
  const trend = useQuery(overviewTrend(projectId, series));
  const latest = trend.data?.runs.at(-1);
  const comparison = useQuery({ ...runComparison(latest?.id ?? ''), enabled: Boolean(latest) });
  let body;
  if (trend.isPending || (latest && comparison.isPending)) body = <Loading what="what changed" />;
  else if (trend.isError)
    body = <LoadError error={trend.error} onRetry={() => void trend.refetch()} />;
  else if (!latest) body = <p>No submitted or completed run of {seriesName(series)} yet.</p>;
  else if (comparison.isError)
    body = <LoadError error={comparison.error} onRetry={() => void comparison.refetch()} />;
  else if (comparison.isSuccess) {
    const c = comparison.data;
    const named = c.new_failures.slice(0, NAMED);
    body = (
      <>
        <p>
          <Link to="/runs/$runId" params={{ runId: latest.id }}>
            {latest.name}, {utcMinute.format(new Date(latest.created_at))} UTC
          </Link>{' '}
          {c.baseline_run_id ? (
            <>
              compared with{' '}
              <Link to="/runs/$runId" params={{ runId: c.baseline_run_id }}>
                the run before it
              </Link>
              .
            </>
          ) : (
            'has no earlier run like it: every failure is new.'
          )}
        </p>
        <dl className="count-tiles" aria-label="What changed">
          {SUMMARY.map(([key, name]) => (
            <div key={key} className={`tile compare-${key}`}>
              <dt>{name}</dt>
              <dd data-compare={key}>{number.format(c.summary[key])}</dd>
            </div>
          ))}
        </dl>
        {named.length > 0 ? (
          <>
            <h3 id="new-failures-title">New failures</h3>
            <ul aria-labelledby="new-failures-title" className="plain-list">
              {named.map((item) => (
                <li key={`${item.test_case_id}/${item.configuration ?? ''}`}>
                  <Link to="/cases/$caseId" params={{ caseId: item.test_case_id }}>
                    {item.title}
                  </Link>
                  {item.configuration ? (
                    <span className="muted"> ({item.configuration})</span>
                  ) : null}
                  {item.message ? <span className="message muted"> {item.message}</span> : null}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <Link to="/runs/$runId" params={{ runId: latest.id }} search={{ tab: 'comparison' }}>
          The whole comparison
        </Link>
      </>
    );
  }
  return (
    <section className="overview-section" aria-labelledby="changes-title">
      <h2 id="changes-title">Since the previous run</h2>
      {body}
    </section>
  );
}
