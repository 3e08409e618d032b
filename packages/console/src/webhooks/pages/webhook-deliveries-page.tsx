import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { organization } from '../../organizations/api/organizations';
import {
  useRedeliver,
  useSetWebhookActive,
  webhook,
  webhookDeliveries,
  type Delivery,
} from '../api/webhooks';
import { BackToOrganizations } from '../../shared/components/page-head';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { DeliveriesTable } from '../components/deliveries-table';
import { SubscriptionFacts } from '../components/subscription-facts';
import { FormError } from '../../shared/components/form-error';

const DELIVERIES_PAGE_SIZE = 25;

/** While a delivery on the page has an attempt due this soon, the log is read again… */
const DUE_SOON_MS = 60_000;
/** …this often, so its outcome shows without a reload. */
const REREAD_MS = 2_000;

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
        <DeliveriesTable
          deliveries={page.data.data}
          openId={open}
          onToggle={(delivery) => void show(delivery.id === open ? undefined : delivery.id)}
          onRedeliver={send}
          redelivering={redeliver.isPending}
        />
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
        <SubscriptionFacts
          hook={hook}
          enabling={enable.isPending}
          onEnable={() => enable.mutate({ id: hook.id, active: true })}
        />
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
