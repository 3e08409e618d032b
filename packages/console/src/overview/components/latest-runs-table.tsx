import { Link } from '@tanstack/react-router';
import type { OverviewRun } from '../api/overview';
import { RunStatus } from '../../runs/components/run-counts';
import { longDuration, number, percentToTenths, utcMinute } from '../../shared/formats';

/** The verdict the run's last completion kept, or why there is none yet. */
export function Verdict({ run }: { run: OverviewRun }) {
  if (run.gate === null) return <span className="muted">Not completed</span>;
  return (
    <span
      className={`badge ${run.gate.passed ? 'verdict-passed' : 'verdict-failed'}`}
      data-verdict={run.gate.passed ? 'passed' : 'failed'}
    >
      Gate {run.gate.passed ? 'passed' : 'failed'}
    </span>
  );
}

/** "main · #311 · 4f2a9c1" of the run's build, or a dash without one. */
export function BuildLine({ run }: { run: OverviewRun }) {
  const build = run.build;
  if (!build) return <span className="muted">No build</span>;
  const parts = [
    build.branch,
    build.build_number ? `#${build.build_number}` : build.name,
    build.commit_sha?.slice(0, 7),
  ].filter((part): part is string => Boolean(part));
  return <span>{parts.join(' · ')}</span>;
}

/** The latest run of each run name: status, kept verdict, pass rate, failures, duration. */
export function LatestRunsTable({ runs }: { runs: OverviewRun[] }) {
  return (
    <table aria-labelledby="latest-title" className="latest-runs">
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Build</th>
          <th scope="col">Status</th>
          <th scope="col">Verdict</th>
          <th scope="col">Pass rate</th>
          <th scope="col">Failures</th>
          <th scope="col">Duration</th>
          <th scope="col">Created (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id} data-run={run.id}>
            <th scope="row">
              <Link to="/runs/$runId" params={{ runId: run.id }}>
                {run.name}
              </Link>
            </th>
            <td>
              <BuildLine run={run} />
            </td>
            <td>
              <RunStatus status={run.status} />
            </td>
            <td>
              <Verdict run={run} />
            </td>
            <td className="number">
              {run.pass_rate === null ? '—' : percentToTenths.format(run.pass_rate)}
            </td>
            <td className="number">{number.format(run.counts.failed + run.counts.blocked)}</td>
            <td className="number">
              {run.duration_ms === null ? '—' : longDuration(run.duration_ms)}
            </td>
            <td>{utcMinute.format(new Date(run.created_at))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
