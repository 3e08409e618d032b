import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import { organization } from '../../organizations/api/organizations';
import {
  useRedeliver,
  useSetWebhookActive,
  webhook,
  webhookDeliveries,
  type Attempt,
  type Delivery,
} from '../api/webhooks';
import { BackToOrganizations } from '../../shared/components/page-head';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { ActiveBadge, EventName } from '../components/webhook-badges';
import { FormError } from '../../shared/components/form-error';
import { number, utcSecond } from '../../shared/formats';

export const DELIVERIES_PAGE_SIZE = 25;

/** While a delivery on the page has an attempt due this soon, the log is read again… */
const DUE_SOON_MS = 60_000;
/** …this often, so its outcome shows without a reload. */
const REREAD_MS = 2_000;

const STATUS_NAMES: Record<Delivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

function dueSoon(deliveries: Delivery[] | undefined): boolean {
  return (deliveries ?? []).some(
    (d) =>
      d.status === 'pending' &&
      (d.next_attempt_at === null || Date.parse(d.next_attempt_at) - Date.now() < DUE_SOON_MS),
  );
}

/**
 * One subscription's delivery log, newest first: each delivery's event, status and attempts;
 * opening one (its id in `?delivery=`) shows every attempt with the receiver's answer. A
 * delivery can be sent again (a new delivery of the same event, at the top of the log).
 */
export function WebhookDeliveriesPage({
  id,
  offset,
  delivery: open,
}: {
  id: string;
  offset: number;
  delivery?: string;
}) {
  const navigate = useNavigate();
  const subscription = useQuery(webhook(id));
  const organizationId = subscription.data?.organization_id;
  const org = useQuery({ ...organization(organizationId ?? ''), enabled: !!organizationId });
  const page = useQuery({
    ...webhookDeliveries(id, { limit: DELIVERIES_PAGE_SIZE, offset }),
    refetchInterval: (query) => (dueSoon(query.state.data?.data) ? REREAD_MS : false),
  });
  const redeliver = useRedeliver(id);
  const enable = useSetWebhookActive();
  const [queued, setQueued] = useState<Delivery | null>(null);

  const show = (deliveryId: string | undefined, at = offset) =>
    navigate({
      to: '/webhooks/$webhookId',
      params: { webhookId: id },
      search: {
        ...(at > 0 ? { offset: at } : {}),
        ...(deliveryId ? { delivery: deliveryId } : {}),
      },
    });
  const send = (delivery: Delivery) =>
    redeliver.mutate(delivery.id, {
      onSuccess: (created) => {
        setQueued(created);
        // The new delivery is the newest: the first page shows it, opened.
        void show(created.id, 0);
      },
    });

  let body = listState(page, offset, {
    what: 'deliveries',
    missing: 'There is no such webhook subscription.',
    empty: (
      <p>
        Nothing has been delivered to this endpoint yet: deliveries appear here once one of its
        events happens.
      </p>
    ),
    pastLast: (
      <PastLast to="/webhooks/$webhookId" params={{ webhookId: id }}>
        This page is past the last delivery.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
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
            {page.data.data.map((delivery) => {
              const expanded = delivery.id === open;
              const label = `${delivery.event_type} of ${utcSecond.format(new Date(delivery.created_at))}`;
              return (
                <Fragment key={delivery.id}>
                  <tr className={expanded ? 'open' : undefined}>
                    <th scope="row">
                      <button
                        type="button"
                        className="disclosure"
                        aria-expanded={expanded}
                        aria-controls={expanded ? `attempts-${delivery.id}` : undefined}
                        aria-label={`Attempts of ${label}`}
                        onClick={() => void show(expanded ? undefined : delivery.id)}
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
                        disabled={redeliver.isPending}
                        onClick={() => send(delivery)}
                      >
                        Redeliver
                      </button>
                    </td>
                  </tr>
                  {expanded ? (
                    <tr className="attempts-row">
                      <td colSpan={6} id={`attempts-${delivery.id}`}>
                        <Attempts delivery={delivery} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
        <Pager
          pagination={page.data.pagination}
          to="/webhooks/$webhookId"
          params={{ webhookId: id }}
        />
      </>
    );
  }

  const hook = subscription.data;
  return (
    <>
      <p>
        {organizationId ? (
          <Link to="/organizations/$organizationId/webhooks" params={{ organizationId }}>
            ← {org.data ? `Webhooks of ${org.data.name}` : 'Webhooks'}
          </Link>
        ) : (
          <BackToOrganizations />
        )}
      </p>
      <h1 className="endpoint-title">
        Deliveries{hook ? ' to ' : null}
        {hook ? <code className="wrap">{hook.url}</code> : null}
      </h1>
      {hook ? (
        <dl className="facts-inline">
          <div>
            <dt>Events</dt>
            <dd>
              <ul className="scopes">
                {hook.events.map((event) => (
                  <li key={event}>
                    <EventName event={event} />
                  </li>
                ))}
              </ul>
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <ActiveBadge active={hook.active} />{' '}
              {hook.active ? null : (
                <button
                  type="button"
                  disabled={enable.isPending}
                  onClick={() => enable.mutate({ id: hook.id, active: true })}
                >
                  Re-enable
                </button>
              )}
            </dd>
          </div>
          {hook.description ? (
            <div>
              <dt>Description</dt>
              <dd>{hook.description}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      <FormError error={enable.error} />
      <div className="log-bar">
        <p role="status" className="muted">
          {queued ? `Redelivery of ${queued.event_type} queued: it is the newest below.` : ''}
        </p>
        {page.isSuccess ? (
          <button
            type="button"
            className="secondary"
            disabled={page.isFetching}
            onClick={() => void page.refetch()}
          >
            {page.isFetching ? 'Refreshing…' : 'Refresh'}
          </button>
        ) : null}
      </div>
      {redeliver.error ? (
        <p className="form-error" role="alert">
          Could not redeliver: {redeliver.error.message}
        </p>
      ) : null}
      {body}
    </>
  );
}

/** Every attempt of a delivery: when, the receiver's answer (or the error), how long it took. */
function Attempts({ delivery }: { delivery: Delivery }) {
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
                  <Answer attempt={attempt} />
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
function Answer({ attempt }: { attempt: Attempt }) {
  const status = attempt.response_status;
  const text =
    status === null
      ? (attempt.error ?? 'No answer')
      : `HTTP ${status}${attempt.error && attempt.error !== `HTTP ${status}` ? ` (${attempt.error})` : ''}`;
  return <span className={attempt.error === null ? 'answer-ok' : 'answer-failed'}>{text}</span>;
}
