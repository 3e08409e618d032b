import type { Result } from '../api/runs';
import { duration, utcSecond } from '../../shared/formats';
import { ResultStatusBadge } from './run-counts';
import type { ReportedCase } from './run-actions';

/** A page of a run's results, each with its markers and a button to report a result for it. */
export function ResultsTable({
  results,
  onReport,
}: {
  results: Result[];
  onReport: (reported: ReportedCase) => void;
}) {
  return (
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
        {results.map((r) => (
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
