import type { ResultStatus, RunCounts, TestRunStatus } from '../api/runs';
import { number } from '../../shared/formats';

export const RUN_STATUS_NAMES: Record<TestRunStatus, string> = {
  in_progress: 'In progress',
  submitted: 'Submitted',
  completed: 'Completed',
};

export const RESULT_STATUS_NAMES: Record<ResultStatus, string> = {
  passed: 'Passed',
  failed: 'Failed',
  blocked: 'Blocked',
  skipped: 'Skipped',
  retest: 'Retest',
  untested: 'Untested',
};

export const RESULT_STATUSES = Object.keys(RESULT_STATUS_NAMES) as ResultStatus[];

/** A run's status as a small label. */
export function RunStatus({ status }: { status: TestRunStatus }) {
  return <span className={`badge run-${status}`}>{RUN_STATUS_NAMES[status]}</span>;
}

/** A result's status as a small label. */
export function ResultStatusBadge({ status }: { status: ResultStatus }) {
  return <span className={`badge result-${status}`}>{RESULT_STATUS_NAMES[status]}</span>;
}

/** "12 passed · 1 failed · …" in a line, for tables: only the statuses that occur. */
export function CountsLine({ counts }: { counts: RunCounts }) {
  if (counts.total === 0) return <span className="muted">No results</span>;
  const parts = RESULT_STATUSES.filter((s) => counts[s] > 0).map(
    (s) => `${number.format(counts[s])} ${RESULT_STATUS_NAMES[s].toLowerCase()}`,
  );
  return (
    <span>
      {number.format(counts.total)} cases: {parts.join(' · ')}
    </span>
  );
}

/** The run's counts as tiles, every status shown (the run page's summary). */
export function CountTiles({ counts }: { counts: RunCounts }) {
  return (
    <dl className="count-tiles" aria-label="Counts">
      <div className="tile">
        <dt>Total</dt>
        <dd data-count="total">{number.format(counts.total)}</dd>
      </div>
      {RESULT_STATUSES.map((s) => (
        <div key={s} className={`tile result-${s}`}>
          <dt>{RESULT_STATUS_NAMES[s]}</dt>
          <dd data-count={s}>{number.format(counts[s])}</dd>
        </div>
      ))}
      <div className="tile">
        <dt>Flaky</dt>
        <dd data-count="flaky">{number.format(counts.flaky)}</dd>
      </div>
    </dl>
  );
}
