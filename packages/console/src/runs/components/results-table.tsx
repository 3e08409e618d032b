import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { Result, ResultOrder } from '../api/runs';
import { duration, utcSecond } from '../../shared/formats';
import { ResultAttempts } from './result-attempts';
import { ResultStatusBadge } from './run-counts';
import type { ReportedCase } from './run-actions';

/**
 * A page of a run's results, each with its markers and, while the run takes results
 * (`onReport`), a button to report a result for it; a result with earlier attempts opens them
 * below its row. The configuration column shows only
 * when a result of the page has one (most runs name none).
 */
export function ResultsTable({
  results,
  order,
  onReport,
}: {
  results: Result[];
  order: ResultOrder;
  onReport?: (reported: ReportedCase) => void;
}) {
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpened((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const configured = results.some((r) => r.configuration !== null);
  return (
    <table className="results">
      <caption className="visually-hidden">
        {order === 'failures_first'
          ? 'Results of the run, failures first, then newest first'
          : 'Results of the run, newest first'}
      </caption>
      <thead>
        <tr>
          <th scope="col">Test case</th>
          {configured ? <th scope="col">Configuration</th> : null}
          <th scope="col">Status</th>
          <th scope="col" className="number">
            Duration
          </th>
          <th scope="col">Message</th>
          <th scope="col">Reported (UTC)</th>
          {onReport ? (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <ResultRows
            key={r.id}
            result={r}
            configured={configured}
            expanded={opened.has(r.id)}
            onToggle={() => toggle(r.id)}
            onReport={onReport}
          />
        ))}
      </tbody>
    </table>
  );
}

function ResultRows({
  result: r,
  configured,
  expanded,
  onToggle,
  onReport,
}: {
  result: Result;
  configured: boolean;
  expanded: boolean;
  onToggle: () => void;
  onReport?: (reported: ReportedCase) => void;
}) {
  const named = `${r.test_case_title}${r.configuration === null ? '' : ` in ${r.configuration}`}`;
  const attemptsId = `attempts-${r.id}`;
  return (
    <>
      <tr className={expanded ? 'open' : undefined}>
        <th scope="row">
          <Link to="/results/$resultId" params={{ resultId: r.id }}>
            {r.test_case_title}
          </Link>
          <Markers result={r} />
          {r.automation_id !== null && r.automation_id !== r.test_case_title ? (
            <div className="automation-id">
              <code>{r.automation_id}</code>
            </div>
          ) : null}
        </th>
        {configured ? (
          <td className="configuration" data-configuration={r.configuration ?? ''}>
            {r.configuration ?? <span className="muted">None</span>}
          </td>
        ) : null}
        <td>
          <ResultStatusBadge status={r.status} />
          {r.attempts.length > 0 ? (
            <div>
              <button
                type="button"
                className="disclosure small-text"
                aria-expanded={expanded}
                aria-controls={expanded ? attemptsId : undefined}
                onClick={onToggle}
              >
                <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>{' '}
                {r.attempts.length === 1
                  ? '1 earlier attempt'
                  : `${r.attempts.length} earlier attempts`}
                <span className="visually-hidden"> of {named}</span>
              </button>
            </div>
          ) : null}
        </td>
        <td className="number">
          <Duration ms={r.duration_ms} />
        </td>
        <td className="message">{r.message ?? <span className="muted">—</span>}</td>
        <td>{utcSecond.format(new Date(r.created_at))}</td>
        {onReport ? (
          <td>
            <button
              type="button"
              className="secondary small"
              aria-label={`Report a result for ${named}`}
              onClick={() =>
                onReport({
                  id: r.test_case_id,
                  title: r.test_case_title,
                  automationId: r.automation_id,
                  configuration: r.configuration,
                })
              }
            >
              Report
            </button>
          </td>
        ) : null}
      </tr>
      {expanded ? (
        <tr className="attempts-row">
          <td colSpan={5 + (configured ? 1 : 0) + (onReport ? 1 : 0)} id={attemptsId}>
            <ResultAttempts result={r} named={named} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function Duration({ ms }: { ms: number | null }) {
  if (ms === null) return <span className="muted">—</span>;
  return <>{duration(ms)}</>;
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
