import { useState, type FormEvent } from 'react';
import { ApiFailure } from '../../shared/api/client';
import { useCreateWebhook, WEBHOOK_EVENTS, type WebhookEvent } from '../api/webhooks';
import { CheckboxChoices } from '../../shared/components/checkbox-choices';
import { ShownOnceDialog } from '../../shared/components/dialogs';
import { FormFooter } from '../../shared/components/form-footer';
import { EventName } from './webhook-badges';

/** An endpoint and its events, checked one by one; the signing secret then shows once. */
export function CreateWebhookForm({ organizationId }: { organizationId: string }) {
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
