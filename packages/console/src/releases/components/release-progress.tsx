import type { ReleaseProgress, ReleaseStatus } from '../api/releases';
import { number, percentToHundredths } from '../../shared/formats';

export const RELEASE_STATUS_NAMES: Record<ReleaseStatus, string> = {
  planned: 'Planned',
  in_progress: 'In progress',
  completed: 'Completed',
};

/** A rate the service computed (0–1), or "—" when it has none (nothing to divide by). */
export function rate(value: number | null): string {
  return value === null ? '—' : percentToHundredths.format(value);
}

export function ReleaseStatusBadge({ status }: { status: ReleaseStatus }) {
  return <span className={`badge release-${status}`}>{RELEASE_STATUS_NAMES[status]}</span>;
}

/** The service's readiness verdict as a label. */
export function ReadinessBadge({ ready }: { ready: boolean }) {
  return ready ? (
    <span className="badge release-ready">Ready</span>
  ) : (
    <span className="badge release-not-ready">Not ready</span>
  );
}

type NotReadyReason = ReleaseProgress['not_ready_because'][number];

/** Each of the service's reasons in words, with the count the progress gives for it. */
const NOT_READY_REASONS: Record<NotReadyReason, (progress: ReleaseProgress) => string> = {
  no_runs: () => 'it has no test runs yet',
  runs_open: ({ test_runs: runs }) => {
    const open = runs.total - runs.completed;
    return open === 1
      ? '1 test run is not completed'
      : `${number.format(open)} test runs are not completed`;
  },
  failed_results: ({ results }) =>
    results.failed === 1 ? '1 result failed' : `${number.format(results.failed)} results failed`,
  blocked_results: ({ results }) =>
    results.blocked === 1
      ? '1 result is blocked'
      : `${number.format(results.blocked)} results are blocked`,
};

/**
 * Why the service says the release is not ready (`not_ready_because`, in its order), and how
 * many of its failures are of cases in quarantine: the quality gate ignores those, readiness
 * does not.
 */
export function NotReadyReasons({
  progress,
  quarantinedFailures,
}: {
  progress: ReleaseProgress;
  quarantinedFailures: number;
}) {
  if (progress.not_ready_because.length === 0) return null;
  return (
    <div className="not-ready" id="not-ready-reasons">
      <p>Not ready because:</p>
      <ul>
        {progress.not_ready_because.map((reason) => (
          <li key={reason} data-reason={reason}>
            {NOT_READY_REASONS[reason](progress)}
          </li>
        ))}
      </ul>
      {quarantinedFailures > 0 ? (
        <p className="quarantined-failures">
          <span className="badge quarantined">Quarantined</span>{' '}
          {quarantinedFailures === 1
            ? '1 failed or blocked result is of a test case in quarantine'
            : `${number.format(quarantinedFailures)} failed or blocked results are of test cases in quarantine`}
          : a run’s quality gate ignores them, the release’s readiness counts them.
        </p>
      ) : null}
    </div>
  );
}

/**
 * The release's cases as a bar (passed, failed or blocked, the rest executed; untested is the
 * empty part) with the completion and pass rate the service reported, as text.
 */
export function ReleaseProgressBar({ progress }: { progress: ReleaseProgress }) {
  const { results } = progress;
  const share = (n: number) => (results.total === 0 ? 0 : (n / results.total) * 100);
  const failed = results.failed + results.blocked;
  const other = results.skipped + results.retest;
  return (
    <div className="progress">
      <div className="progress-bar" aria-hidden="true">
        <div className="progress-passed" style={{ width: `${share(results.passed)}%` }} />
        <div className="progress-failed" style={{ width: `${share(failed)}%` }} />
        <div className="progress-other" style={{ width: `${share(other)}%` }} />
      </div>
      <span className="progress-text">
        {results.total === 0
          ? 'No results yet'
          : `${rate(progress.completion_rate)} done · ${rate(progress.pass_rate)} passed`}
      </span>
    </div>
  );
}

/** The release's figures as tiles: cases by current result, the rates, runs and builds. */
export function ReleaseTiles({ progress }: { progress: ReleaseProgress }) {
  const { results, test_runs: runs } = progress;
  const tiles: Array<[string, string, string]> = [
    ['Pass rate', rate(progress.pass_rate), 'pass_rate'],
    ['Completion', rate(progress.completion_rate), 'completion_rate'],
    ['Cases', number.format(results.total), 'total'],
    ['Passed', number.format(results.passed), 'passed'],
    ['Failed', number.format(results.failed), 'failed'],
    ['Blocked', number.format(results.blocked), 'blocked'],
    ['Skipped', number.format(results.skipped), 'skipped'],
    ['Retest', number.format(results.retest), 'retest'],
    ['Untested', number.format(results.untested), 'untested'],
    ['Runs', number.format(runs.total), 'runs'],
    ['Runs completed', number.format(runs.completed), 'runs_completed'],
    ['Builds', number.format(progress.builds), 'builds'],
  ];
  return (
    <dl className="count-tiles" aria-label="Progress">
      {tiles.map(([label, value, key]) => (
        <div key={key} className="tile">
          <dt>{label}</dt>
          <dd data-count={key}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
