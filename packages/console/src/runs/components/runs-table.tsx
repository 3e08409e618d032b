import { Link } from '@tanstack/react-router';
import type { RunCounts, TestRunStatus } from '../api/runs';
import { utcMinute } from '../../shared/formats';
import { CountsLine, RunStatus } from './run-counts';

/** What a row of the table shows of a run. */
interface RunRow {
  id: string;
  name: string;
  status: TestRunStatus;
  counts: RunCounts;
  created_at: string;
}

/**
 * Test runs in a table, each linked to its page: status, counts and when it was created. The
 * table is named by a hidden `caption`, or by the heading `labelledBy` names.
 */
export function RunsTable({
  runs,
  caption,
  labelledBy,
}: {
  runs: RunRow[];
  caption?: string;
  labelledBy?: string;
}) {
  return (
    <table aria-labelledby={labelledBy}>
      {caption ? <caption className="visually-hidden">{caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Status</th>
          <th scope="col">Results</th>
          <th scope="col">Created (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id}>
            <th scope="row">
              <Link to="/runs/$runId" params={{ runId: run.id }}>
                {run.name}
              </Link>
            </th>
            <td>
              <RunStatus status={run.status} />
            </td>
            <td>
              <CountsLine counts={run.counts} />
            </td>
            <td>{utcMinute.format(new Date(run.created_at))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
