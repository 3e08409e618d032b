import type { Delivery } from '../api/webhooks';
import { number, utcSecond } from '../../shared/formats';
import { DeliveryAttempts } from './delivery-attempts';

const STATUS_NAMES: Record<Delivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

interface RowActions {
  /** Opens the delivery's attempts, or closes them when it is the opened one. */
  onToggle: (delivery: Delivery) => void;
  onRedeliver: (delivery: Delivery) => void;
  redelivering: boolean;
}

/** A page of deliveries, newest first; the opened one (`openId`) with its attempts below it. */
export function DeliveriesTable({
  deliveries,
  openId,
  ...actions
}: { deliveries: Delivery[]; openId?: string } & RowActions) {
  return (
    <table className="deliveries">
      <caption className="visually-hidden">Deliveries, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Created (UTC)</th>
          <th scope="col">Next attempt (UTC)</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <DeliveryRows
            key={delivery.id}
            delivery={delivery}
            expanded={delivery.id === openId}
            {...actions}
          />
        ))}
      </tbody>
    </table>
  );
}

function DeliveryRows({
  delivery,
  expanded,
  onToggle,
  onRedeliver,
  redelivering,
}: { delivery: Delivery; expanded: boolean } & RowActions) {
  const label = `${delivery.event_type} of ${utcSecond.format(new Date(delivery.created_at))}`;
  return (
    <>
      <tr className={expanded ? 'open' : undefined}>
        <th scope="row">
          <button
            type="button"
            className="disclosure"
            aria-expanded={expanded}
            aria-controls={expanded ? `attempts-${delivery.id}` : undefined}
            aria-label={`Attempts of ${label}`}
            onClick={() => onToggle(delivery)}
          >
            <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>{' '}
            <code>{delivery.event_type}</code>
          </button>
        </th>
        <td>
          <span className={`badge delivery-${delivery.status}`}>
            {STATUS_NAMES[delivery.status]}
          </span>
        </td>
        <td className="number">{number.format(delivery.attempts)}</td>
        <td>{utcSecond.format(new Date(delivery.created_at))}</td>
        <td>
          {delivery.next_attempt_at ? (
            utcSecond.format(new Date(delivery.next_attempt_at))
          ) : (
            <span className="muted">None</span>
          )}
        </td>
        <td>
          <button
            type="button"
            className="secondary"
            aria-label={`Redeliver ${label}`}
            disabled={redelivering}
            onClick={() => onRedeliver(delivery)}
          >
            Redeliver
          </button>
        </td>
      </tr>
      {expanded ? (
        <tr className="attempts-row">
          <td colSpan={6} id={`attempts-${delivery.id}`}>
            <DeliveryAttempts delivery={delivery} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
