import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { runComparison, type Comparison, type ComparisonItem } from '../api/run-insights';
import { LoadError, Loading } from '../../shared/components/states';
import { number } from '../../shared/formats';
import { ResultStatusBadge } from './run-counts';

const SUMMARY: Array<[keyof Comparison['summary'], string]> = [
  ['new_failures', 'New failures'],
  ['still_failing', 'Still failing'],
  ['fixed', 'Fixed'],
  ['new_tests', 'New tests'],
  ['missing_tests', 'Missing tests'],
  ['flaky', 'Flaky'],
];

/** The comparison tab: new failures first, then the ones still failing, then the fixed ones. */
export function ComparisonSection({ runId }: { runId: string }) {
  const comparison = useQuery(runComparison(runId));
  let body;
  if (comparison.isPending) body = <Loading what="the comparison" />;
  else if (comparison.isError)
    body = <LoadError error={comparison.error} onRetry={() => void comparison.refetch()} />;
  else {
    const c = comparison.data;
    body = (
      <>
        <p>
          {c.baseline_run_id ? (
            <>
              Baseline:{' '}
              <Link to="/runs/$runId" params={{ runId: c.baseline_run_id }}>
                the previous run like this one
              </Link>
            </>
          ) : (
            'No baseline: no earlier submitted or completed run like this one, so every failure is new.'
          )}
        </p>
        <dl className="count-tiles" aria-label="Comparison">
          {SUMMARY.map(([key, name]) => (
            <div key={key} className={`tile compare-${key}`}>
              <dt>{name}</dt>
              <dd data-compare={key}>{number.format(c.summary[key])}</dd>
            </div>
          ))}
        </dl>
        <ComparisonList
          runId={runId}
          id="new-failures"
          title="New failures"
          items={c.new_failures}
          total={c.summary.new_failures}
        />
        <ComparisonList
          runId={runId}
          id="still-failing"
          title="Still failing"
          items={c.still_failing}
          total={c.summary.still_failing}
        />
        <ComparisonList
          runId={runId}
          id="fixed"
          title="Fixed"
          items={c.fixed}
          total={c.summary.fixed}
        />
      </>
    );
  }
  return (
    <section aria-labelledby="comparison-title">
      <h2 id="comparison-title">Compared with baseline</h2>
      {body}
    </section>
  );
}

function ComparisonList({
  runId,
  id,
  title,
  items,
  total,
}: {
  runId: string;
  id: string;
  title: string;
  items: ComparisonItem[];
  total: number;
}) {
  // Runs are compared slot by slot: a case may be listed once per configuration.
  const configured = items.some((item) => item.configuration !== null);
  return (
    <section aria-labelledby={id} className="comparison-list" data-list={id}>
      <h3 id={id}>
        {title} ({number.format(total)})
      </h3>
      {items.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table className="results">
          <caption className="visually-hidden">
            {title}, by automation id{configured ? ' and configuration' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Test case</th>
              {configured ? <th scope="col">Configuration</th> : null}
              <th scope="col">Now</th>
              <th scope="col">Baseline</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={`${item.test_case_id} ${item.configuration ?? ''}`}>
                <th scope="row">
                  <Link
                    to="/runs/$runId/cases/$caseId"
                    params={{ runId, caseId: item.test_case_id }}
                    search={{ configuration: item.configuration ?? '' }}
                  >
                    {item.title}
                  </Link>
                  {item.automation_id !== null && item.automation_id !== item.title ? (
                    <div className="automation-id">
                      <code>{item.automation_id}</code>
                    </div>
                  ) : null}
                </th>
                {configured ? (
                  <td className="configuration" data-configuration={item.configuration ?? ''}>
                    {item.configuration ?? <span className="muted">None</span>}
                  </td>
                ) : null}
                <td>
                  <ResultStatusBadge status={item.status} />
                </td>
                <td>
                  {item.baseline_status ? (
                    <ResultStatusBadge status={item.baseline_status} />
                  ) : (
                    <span className="muted">Absent</span>
                  )}
                </td>
                <td className="message">{item.message ?? <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {total > items.length ? (
        <p className="muted">
          The first {number.format(items.length)} of {number.format(total)}, by automation id.
        </p>
      ) : null}
    </section>
  );
}
