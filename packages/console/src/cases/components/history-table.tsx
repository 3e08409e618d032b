import { Link } from '@tanstack/react-router';
import type { CaseHistoryItem } from '../api/cases';
import { ResultStatusBadge } from '../../runs/components/run-counts';
import { utcSecond } from '../../shared/formats';

/** How much of a commit a row shows; the whole one is its title. */
const SHORT_COMMIT = 7;

/**
 * A page of a test case's results, newest first: each with its message, where it ran (run,
 * configuration, build, branch, commit), and a link to the result's own page.
 */
export function HistoryTable({ results }: { results: CaseHistoryItem[] }) {
  return (
    <table className="results history">
      <caption className="visually-hidden">Results of the test case, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Reported (UTC)</th>
          <th scope="col">Status</th>
          <th scope="col">Message</th>
          <th scope="col">Test run</th>
          <th scope="col">Configuration</th>
          <th scope="col">Build</th>
          <th scope="col">Branch</th>
          <th scope="col">Commit</th>
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <tr key={r.id} data-result={r.id}>
            <th scope="row">
              <Link to="/results/$resultId" params={{ resultId: r.id }}>
                {utcSecond.format(new Date(r.created_at))}
              </Link>
            </th>
            <td>
              <ResultStatusBadge status={r.status} />
            </td>
            <td className="message">{r.message ?? <Muted />}</td>
            <td>
              <Link to="/runs/$runId" params={{ runId: r.test_run_id }}>
                {r.test_run_name}
              </Link>
            </td>
            <td className="configuration">{r.configuration ?? <Muted />}</td>
            <td>
              {r.build_name === null ? (
                <Muted />
              ) : (
                `${r.build_name}${r.build_number === null ? '' : ` #${r.build_number}`}`
              )}
            </td>
            <td>{r.branch ?? <Muted />}</td>
            <td>
              {r.commit_sha === null ? (
                <Muted />
              ) : (
                <code title={r.commit_sha}>{r.commit_sha.slice(0, SHORT_COMMIT)}</code>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Muted() {
  return <span className="muted">—</span>;
}
