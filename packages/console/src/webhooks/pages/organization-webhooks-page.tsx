import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ApiFailure } from '../../shared/api/client';
import { organization } from '../../organizations/api/organizations';
import {
  organizationWebhooks,
  useCreateWebhook,
  useDeleteWebhook,
  useSetWebhookActive,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookEvent,
} from '../api/webhooks';
import { CheckboxChoices } from '../../shared/components/checkbox-choices';
import { ConfirmDialog, ShownOnceDialog } from '../../shared/components/dialogs';
import { FormError } from '../../shared/components/form-error';
import { FormFooter } from '../../shared/components/form-footer';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { OrganizationPageHead } from '../../shared/components/page-head';
import { utcMinute } from '../../shared/formats';
import { ActiveBadge, EventName } from '../components/webhook-badges';

export const WEBHOOKS_PAGE_SIZE = 25;

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
      {deleting ? <DeleteDialog webhook={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}

/** An endpoint and its events, checked one by one; the signing secret then shows once. */
function CreateWebhookForm({ organizationId }: { organizationId: string }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  /** The new secret, in this component's state only, until its dialog closes. */
  const [shown, setShown] = useState<{ secret: string; url: string } | null>(null);
  const create = useCreateWebhook(organizationId, (secret, createdUrl) =>
    setShown({ secret, url: createdUrl }),
  );
  const failedField = create.error instanceof ApiFailure ? create.error.field : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url, events, ...(description ? { description } : {}) },
      {
        onSuccess: () => {
          setUrl('');
          setDescription('');
          setEvents([]);
        },
      },
    );
  };

  return (
    <>
      <h2 id="new-webhook" className="section">
        New subscription
      </h2>
      <form onSubmit={submit} className="card form" aria-labelledby="new-webhook">
        <label htmlFor="webhook-url">Endpoint URL</label>
        <input
          id="webhook-url"
          name="url"
          type="url"
          required
          maxLength={2048}
          placeholder="https://ci.example.com/hooks/test-management"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          aria-invalid={failedField === 'url' || undefined}
          aria-describedby="webhook-url-hint"
        />
        <span id="webhook-url-hint" className="muted hint">
          The service posts each event there, signed with the secret it shows you once.
        </span>
        <label htmlFor="webhook-description">Description (optional)</label>
        <input
          id="webhook-description"
          name="description"
          maxLength={1000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          aria-invalid={failedField === 'description' || undefined}
        />
        <CheckboxChoices
          legend="Events (at least one)"
          name="events"
          options={WEBHOOK_EVENTS}
          chosen={events}
          onChange={setEvents}
          invalid={failedField?.startsWith('events') ?? false}
        >
          {(type) => <EventName event={type} />}
        </CheckboxChoices>
        <FormFooter call={create} action={{ label: 'Create subscription', pending: 'Creating…' }} />
      </form>
      {shown ? (
        <ShownOnceDialog
          titleId="new-secret-title"
          title="Subscription created"
          intro={
            <p className="endpoint-line">
              Deliveries to <code>{shown.url}</code> are signed with this secret.
            </p>
          }
          warning="Copy this signing secret now: it will not be shown again. Your endpoint needs it to check that each delivery comes from this service."
          value={shown.secret}
          valueLabel="The signing secret"
          noun="secret"
          onClose={() => setShown(null)}
        />
      ) : null}
    </>
  );
}

/** Deleting a subscription, once confirmed: its pending retries stop. */
function DeleteDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const remove = useDeleteWebhook();
  return (
    <ConfirmDialog
      titleId="delete-webhook-title"
      title="Delete this subscription?"
      call={remove}
      action={{ label: 'Delete subscription', pending: 'Deleting…' }}
      danger
      onConfirm={() => remove.mutate(webhook.id, { onSuccess: onClose })}
      onClose={onClose}
    >
      <p>
        Nothing more will be sent to <code className="wrap">{webhook.url}</code>, and its pending
        retries stop. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
