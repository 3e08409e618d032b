import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  API_KEY_SCOPES,
  organizationApiKeys,
  useCreateApiKey,
  useDeleteApiKey,
  type ApiKey,
  type Scope,
} from '../api/api-keys';
import { ApiFailure } from '../../shared/api/client';
import { organization } from '../../organizations/api/organizations';
import { CheckboxChoices } from '../../shared/components/checkbox-choices';
import { ConfirmDialog, ShownOnceDialog } from '../../shared/components/dialogs';
import { FormFooter } from '../../shared/components/form-footer';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { OrganizationPageHead } from '../../shared/components/page-head';
import { utcMinute } from '../../shared/formats';

export const API_KEYS_PAGE_SIZE = 25;

/** An organization's API keys: the list, a form to create one, and deleting with confirmation. */
export function OrganizationApiKeysPage({ id, offset }: { id: string; offset: number }) {
  const org = useQuery(organization(id));
  const page = useQuery(organizationApiKeys(id, { limit: API_KEYS_PAGE_SIZE, offset }));
  const [deleting, setDeleting] = useState<ApiKey | null>(null);

  let body = listState(page, offset, {
    what: 'API keys',
    missing: 'There is no such organization.',
    empty: <p>This organization has no API keys yet. Create one below for a pipeline.</p>,
    pastLast: (
      <PastLast to="/organizations/$organizationId/api-keys" params={{ organizationId: id }}>
        This page is past the last key.
      </PastLast>
    ),
  });
  if (body === null && page.isSuccess) {
    body = (
      <>
        <table className="api-keys">
          <caption className="visually-hidden">API keys, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Scopes</th>
              <th scope="col">Last used</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((key) => (
              <tr key={key.id}>
                <th scope="row">{key.name}</th>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>
                  <ul className="scopes">
                    {key.scopes.map((scope) => (
                      <li key={scope}>
                        <code>{scope}</code>
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  {key.last_used_at ? (
                    utcMinute.format(new Date(key.last_used_at))
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td>{utcMinute.format(new Date(key.created_at))}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Delete ${key.name}`}
                    onClick={() => setDeleting(key)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          pagination={page.data.pagination}
          to="/organizations/$organizationId/api-keys"
          params={{ organizationId: id }}
        />
      </>
    );
  }

  return (
    <>
      <OrganizationPageHead organizationId={id} organization={org.data} title="API keys" />
      {body}
      {page.isError ? null : <CreateApiKeyForm organizationId={id} />}
      {deleting ? <DeleteDialog apiKey={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}

/** A name and the scopes, checked one by one; the new key then shows once in a dialog. */
function CreateApiKeyForm({ organizationId }: { organizationId: string }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  /** The new key, in this component's state only, until its dialog closes. */
  const [shown, setShown] = useState<{ key: string; name: string } | null>(null);
  const create = useCreateApiKey(organizationId, (key, keyName) =>
    setShown({ key, name: keyName }),
  );
  const failedField = create.error instanceof ApiFailure ? create.error.field : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, scopes },
      {
        onSuccess: () => {
          setName('');
          setScopes([]);
        },
      },
    );
  };

  return (
    <>
      <h2 id="new-key" className="section">
        New API key
      </h2>
      <form onSubmit={submit} className="card form" aria-labelledby="new-key">
        <label htmlFor="key-name">Name</label>
        <input
          id="key-name"
          name="name"
          required
          maxLength={255}
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={failedField === 'name' || undefined}
        />
        <CheckboxChoices
          legend="Scopes (at least one)"
          name="scopes"
          options={API_KEY_SCOPES}
          chosen={scopes}
          onChange={setScopes}
          invalid={failedField === 'scopes'}
        >
          {(scope) => <code>{scope}</code>}
        </CheckboxChoices>
        <FormFooter call={create} action={{ label: 'Create key', pending: 'Creating…' }} />
      </form>
      {shown ? (
        <ShownOnceDialog
          titleId="new-key-title"
          title={`Key “${shown.name}” created`}
          warning="Copy this key now: it will not be shown again. Only its prefix stays visible here."
          value={shown.key}
          valueLabel="The new API key"
          noun="key"
          onClose={() => setShown(null)}
        />
      ) : null}
    </>
  );
}

/** Deleting a key, once confirmed: it stops working at once. */
function DeleteDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const remove = useDeleteApiKey();
  return (
    <ConfirmDialog
      titleId="delete-key-title"
      title={`Delete the key “${apiKey.name}”?`}
      call={remove}
      action={{ label: 'Delete key', pending: 'Deleting…' }}
      danger
      onConfirm={() => remove.mutate(apiKey.id, { onSuccess: onClose })}
      onClose={onClose}
    >
      <p>
        Pipelines using <code>{apiKey.prefix}…</code> will be refused at once. This cannot be
        undone.
      </p>
    </ConfirmDialog>
  );
}
