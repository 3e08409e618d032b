import type { Attempt, Delivery } from '../api/webhooks';
import { number, utcSecond } from '../../shared/formats';

/** Every attempt of a delivery: when, the receiver's answer (or the error), how long it took. */
export function DeliveryAttempts({ delivery }: { delivery: Delivery }) {
  return (
    <div className="attempts">
      <p className="muted">
        Delivery <code>{delivery.id}</code> (the <code>X-Service-Delivery</code> header) of event{' '}
        <code>{delivery.event_id}</code>
      </p>
      {delivery.attempt_log.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Attempts of this delivery</caption>
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Answer</th>
              <th scope="col">Duration</th>
              <th scope="col">Response (first 2 KiB)</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attempt_log.map((attempt) => (
              <tr key={attempt.attempt}>
                <th scope="row" className="number">
                  {attempt.attempt}
                </th>
                <td>{utcSecond.format(new Date(attempt.at))}</td>
                <td>
                  <ReceiverAnswer attempt={attempt} />
                </td>
                <td className="number">{number.format(attempt.duration_ms)} ms</td>
                <td>
                  {attempt.response_body ? (
                    // Text from the receiver, shown as text (React escapes it), never as markup.
                    <pre className="excerpt">{attempt.response_body}</pre>
                  ) : (
                    <span className="muted">None</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** The receiver's status, or why there was none; marked failed when the service says so. */
function ReceiverAnswer({ attempt }: { attempt: Attempt }) {
  const status = attempt.response_status;
  const text =
    status === null
      ? (attempt.error ?? 'No answer')
      : `HTTP ${status}${attempt.error && attempt.error !== `HTTP ${status}` ? ` (${attempt.error})` : ''}`;
  return <span className={attempt.error === null ? 'answer-ok' : 'answer-failed'}>{text}</span>;
}
