import type { Attempt, Result } from '../api/runs';
import { duration, number } from '../../shared/formats';
import { ResultStatusBadge } from './run-counts';

const FAILING: ReadonlySet<Attempt['status']> = new Set(['failed', 'blocked']);

/**
 * Every attempt of one execution, oldest first, the result's own (the final one) last. The
 * service keeps the last 20 earlier attempts but counts every failed one in `retries`: the
 * difference is said, so a long retry loop does not look shorter than it was.
 */
export function ResultAttempts({ result, named }: { result: Result; named: string }) {
  const keptFailures = result.attempts.filter((a) => FAILING.has(a.status)).length;
  const dropped = result.retries - keptFailures;
  const final: Attempt = {
    status: result.status,
    duration_ms: result.duration_ms,
    message: result.message,
    failure_type: result.failure_type,
    stack_trace: result.stack_trace,
  };
  return (
    <div className="attempts">
      {dropped > 0 ? (
        <p className="muted">
          {number.format(dropped)} older failed {dropped === 1 ? 'attempt was' : 'attempts were'}{' '}
          not kept (the service keeps the last 20).
        </p>
      ) : null}
      <table className="result-attempts">
        <caption className="visually-hidden">Attempts of {named}, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Attempt</th>
            <th scope="col">Status</th>
            <th scope="col" className="number">
              Duration
            </th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {[...result.attempts, final].map((attempt, i) => (
            <tr key={i} data-attempt={i + 1}>
              <th scope="row">
                {i + 1 + Math.max(dropped, 0)}
                {i === result.attempts.length ? <span className="muted"> (final)</span> : null}
              </th>
              <td>
                <ResultStatusBadge status={attempt.status} />
              </td>
              <td className="number">
                {attempt.duration_ms === null ? (
                  <span className="muted">—</span>
                ) : (
                  duration(attempt.duration_ms)
                )}
              </td>
              <td className="message">
                <AttemptFailure attempt={attempt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The attempt's message, its failure type and stack trace (folded) when it has them. */
function AttemptFailure({ attempt }: { attempt: Attempt }) {
  if (attempt.message === null && attempt.failure_type === null && attempt.stack_trace === null)
    return <span className="muted">—</span>;
  return (
    <>
      {attempt.failure_type !== null ? (
        <div className="automation-id">
          <code>{attempt.failure_type}</code>
        </div>
      ) : null}
      {attempt.message}
      {attempt.stack_trace !== null ? (
        <details>
          <summary>Stack trace</summary>
          <pre className="excerpt">{attempt.stack_trace}</pre>
        </details>
      ) : null}
    </>
  );
}
