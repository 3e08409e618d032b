import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { organization } from '../../organizations/api/organizations';
import { organizationWebhooks, useSetWebhookActive, type Webhook } from '../api/webhooks';
import { FormError } from '../../shared/components/form-error';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { OrganizationPageHead } from '../../shared/components/page-head';
import { utcMinute } from '../../shared/formats';
import { ActiveBadge, EventName } from '../components/webhook-badges';
import { CreateWebhookForm } from '../components/create-webhook-form';
import { DeleteWebhookDialog } from '../components/delete-webhook-dialog';

const WEBHOOKS_PAGE_SIZE = 25;

/**
 * An organization's webhook subscriptions: the list (each leading to its delivery log), a form
 * to add one (its signing secret shown once), switching one back on, and deleting one.
 */
export function OrganizationWebhooksPage({ id, offset }: { id: string; offset: number }) {
  const org = useQuery(organization(id));
  const page = useQuery(organizationWebhooks(id, { limit: WEBHOOKS_PAGE_SIZE, offset }));
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const enable = useSetWebhookActive();

  let body = listState(page, offset, {
    what: 'webhook subscriptions',
    missing: 'There is no such organization.',
    empty: (
      <p>
        This organization has no webhook subscriptions yet. Add one below to have its builds, test
        runs and releases sent to an endpoint.
      </p>
    ),
    pastLast: (
      <PastLast to="/organizations/$organizationId/webhooks" params={{ organizationId: id }}>
        This page is past the last subscription.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <table className="webhooks">
          <caption className="visually-hidden">Webhook subscriptions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col">Created (UTC)</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((hook) => (
              <tr key={hook.id}>
                <th scope="row" className="endpoint">
                  <Link
                    to="/webhooks/$webhookId"
                    params={{ webhookId: hook.id }}
                    aria-label={`Deliveries to ${hook.url}`}
                  >
                    {hook.url}
                  </Link>
                  {hook.description ? (
                    <span className="description">{hook.description}</span>
                  ) : null}
                </th>
                <td>
                  <ul className="scopes">
                    {hook.events.map((event) => (
                      <li key={event}>
                        <EventName event={event} />
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  <ActiveBadge active={hook.active} />
                </td>
                <td>{utcMinute.format(new Date(hook.created_at))}</td>
                <td className="row-actions">
                  {hook.active ? null : (
                    <button
                      type="button"
                      aria-label={`Re-enable ${hook.url}`}
                      disabled={enable.isPending}
                      onClick={() => enable.mutate({ id: hook.id, active: true })}
                    >
                      Re-enable
                    </button>
                  )}
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Delete ${hook.url}`}
                    onClick={() => setDeleting(hook)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <FormError error={enable.error} />
        <Pager
          pagination={page.data.pagination}
          to="/organizations/$organizationId/webhooks"
          params={{ organizationId: id }}
        />
      </>
    );
  }

  return (
    <>
      <OrganizationPageHead organizationId={id} organization={org.data} title="Webhooks" />
      {body}
      {page.isError ? null : <CreateWebhookForm organizationId={id} />}
      {deleting ? (
        <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(null)} />
      ) : null}
    </>
  );
}
