import { Link } from '@tanstack/react-router';
import type { RunListItem } from '../api/runs';
import type { RunListView } from '../run-list-view';
import { duration, utcMinute } from '../../shared/formats';
import { PassRateBar } from './pass-rate-bar';
import { CountsLine, RunStatus } from './run-counts';

/** The commit as people quote it: its first 7 characters. */
const shortCommit = (sha: string) => sha.slice(0, 7);

/** The gate's verdict kept from the run's last completion, or a dash before its first. */
function Verdict({ gate }: { gate: RunListItem['gate'] }) {
  if (gate === null) return <span className="muted">—</span>;
  return (
    <span className={`badge ${gate.passed ? 'verdict-passed' : 'verdict-failed'}`}>
      Gate {gate.passed ? 'passed' : 'failed'}
    </span>
  );
}

/** Build number, branch and short commit of the run's build, on one line. */
function BuildLine({ build }: { build: RunListItem['build'] }) {
  if (build === null) return <span className="muted">No build</span>;
  return (
    <span className="build-line">
      <span title={build.name}>#{build.build_number ?? '—'}</span>
      {build.branch === null ? null : <span className="branch">{build.branch}</span>}
      {build.commit_sha === null ? null : (
        <code title={build.commit_sha}>{shortCommit(build.commit_sha)}</code>
      )}
    </span>
  );
}

/**
 * A project's runs with their context, each linked to its page: name (and "only this name", a
 * link to that name's runs alone, whose text leaves the name out so the run's own link is the
 * only one named by it), build, status and kept verdict, pass rate, counts, configurations, duration and
 * creation time. Named by its hidden caption.
 */
export function RunListTable({
  projectId,
  runs,
  view,
  caption,
}: {
  projectId: string;
  runs: RunListItem[];
  view: RunListView;
  caption: string;
}) {
  return (
    <table className="run-list">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Build</th>
          <th scope="col">Status</th>
          <th scope="col">Pass rate</th>
          <th scope="col">Results</th>
          <th scope="col">Duration</th>
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
              <span className="run-context">
                {run.configurations.length > 0 ? (
                  <span className="configurations">{run.configurations.join(', ')}</span>
                ) : null}
                {view.name === run.name ? null : (
                  <Link
                    className="same-name"
                    to="/projects/$projectId/runs"
                    params={{ projectId }}
                    search={{ ...view, offset: undefined, name: run.name }}
                  >
                    only this name
                  </Link>
                )}
              </span>
            </th>
            <td>
              <BuildLine build={run.build} />
            </td>
            <td>
              <span className="status-verdict">
                <RunStatus status={run.status} />
                <Verdict gate={run.gate} />
              </span>
            </td>
            <td>
              <PassRateBar rate={run.pass_rate} />
            </td>
            <td>
              <CountsLine counts={run.counts} />
            </td>
            <td className="number">
              {run.duration_ms === null ? (
                <span className="muted">—</span>
              ) : (
                duration(run.duration_ms)
              )}
            </td>
            <td>{utcMinute.format(new Date(run.created_at))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
