import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  runComparison,
  runFailures,
  runGate,
  type Comparison,
  type ComparisonItem,
} from '../api/run-insights';
import { Pager } from '../../shared/components/pager';
import { ResultStatusBadge } from './run-counts';
import { listState, PastLast, LoadError, Loading } from '../../shared/components/states';
import { number } from '../../shared/formats';

export const FAILURE_GROUPS_PAGE_SIZE = 20;

/** What each gate rule checks, as the page names it (the server's `detail` says the rest). */
const RULE_NAMES: Record<string, string> = {
  no_new_failures: 'No new failures',
  min_pass_rate: 'Minimum pass rate',
  no_missing_tests: 'No missing tests',
};

/** The quality gate's verdict as the server gives it: passed or failed, rule by rule. */
export function GatePanel({ runId }: { runId: string }) {
  const gate = useQuery(runGate(runId));
  if (gate.isPending) return <Loading what="the quality gate" />;
  if (gate.isError) return <LoadError error={gate.error} onRetry={() => void gate.refetch()} />;
  const { passed, rules } = gate.data;
  return (
    <section
      className={`card gate ${passed ? 'gate-passed' : 'gate-failed'}`}
      aria-labelledby="gate-title"
    >
      <h2 id="gate-title">
        Quality gate{' '}
        <span
          className={`badge ${passed ? 'verdict-passed' : 'verdict-failed'}`}
          data-gate={passed ? 'passed' : 'failed'}
        >
          {passed ? 'Passed' : 'Failed'}
        </span>
      </h2>
      <ul className="gate-rules">
        {rules.map((rule) => (
          <li key={rule.name} className={rule.passed ? 'rule-passed' : 'rule-failed'}>
            <span aria-hidden="true">{rule.passed ? '✓' : '✗'}</span>{' '}
            <strong>{RULE_NAMES[rule.name] ?? rule.name}</strong>
            <span className="visually-hidden">{rule.passed ? ' (passed)' : ' (failed)'}</span>:{' '}
            {rule.detail}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The failures tab: failed and blocked results grouped by signature, largest group first. */
export function FailuresSection({ runId, offset }: { runId: string; offset: number }) {
  const groups = useQuery(runFailures(runId, { limit: FAILURE_GROUPS_PAGE_SIZE, offset }));
  let body = listState(groups, offset, {
    what: 'failures',
    empty: <p>No failed or blocked results in this run.</p>,
    pastLast: (
      <PastLast to="/runs/$runId" params={{ runId }} search={{ tab: 'failures' }}>
        This page is past the last group.
      </PastLast>
    ),
  });
  if (body === null && groups.isSuccess) {
    body = (
      <>
        <ol className="failure-groups">
          {groups.data.data.map((group) => {
            const shown = group.test_cases.length;
            return (
              <li key={group.signature ?? 'none'} className="card failure-group">
                <h3>
                  <span className="count">{number.format(group.count)}</span>{' '}
                  {group.count === 1 ? 'failure' : 'failures'}
                  {group.failure_type ? (
                    <>
                      {' '}
                      of <code>{group.failure_type}</code>
                    </>
                  ) : null}
                </h3>
                <p className="message">
                  {group.message ?? <span className="muted">No message</span>}
                </p>
                <p className="muted signature">
                  Signature <code>{group.signature ?? 'none'}</code>
                </p>
                <ul className="group-cases" aria-label="Cases">
                  {group.test_cases.map((c) => (
                    <li key={c.id}>
                      <Link
                        to="/runs/$runId"
                        params={{ runId }}
                        search={{ q: c.automation_id ?? c.title }}
                      >
                        {c.title}
                      </Link>
                      {c.automation_id !== null && c.automation_id !== c.title ? (
                        <>
                          {' '}
                          <code className="automation-id">{c.automation_id}</code>
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
                {group.count > shown ? (
                  <p className="muted">and {number.format(group.count - shown)} more</p>
                ) : null}
              </li>
            );
          })}
        </ol>
        <Pager
          pagination={groups.data.pagination}
          to="/runs/$runId"
          params={{ runId }}
          search={{ tab: 'failures' }}
        />
      </>
    );
  }
  return (
    <section aria-labelledby="failures-title">
      <h2 id="failures-title">Failures by cause</h2>
      {body}
    </section>
  );
}

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
          id="new-failures"
          title="New failures"
          items={c.new_failures}
          total={c.summary.new_failures}
        />
        <ComparisonList
          id="still-failing"
          title="Still failing"
          items={c.still_failing}
          total={c.summary.still_failing}
        />
        <ComparisonList id="fixed" title="Fixed" items={c.fixed} total={c.summary.fixed} />
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
  id,
  title,
  items,
  total,
}: {
  id: string;
  title: string;
  items: ComparisonItem[];
  total: number;
}) {
  return (
    <section aria-labelledby={id} className="comparison-list" data-list={id}>
      <h3 id={id}>
        {title} ({number.format(total)})
      </h3>
      {items.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table className="results">
          <caption className="visually-hidden">{title}, by automation id</caption>
          <thead>
            <tr>
              <th scope="col">Test case</th>
              <th scope="col">Now</th>
              <th scope="col">Baseline</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.test_case_id}>
                <th scope="row">
                  {item.title}
                  {item.automation_id !== null && item.automation_id !== item.title ? (
                    <div className="automation-id">
                      <code>{item.automation_id}</code>
                    </div>
                  ) : null}
                </th>
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
