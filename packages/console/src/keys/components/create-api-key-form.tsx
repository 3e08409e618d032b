import { useState, type FormEvent } from 'react';
import { API_KEY_SCOPES, useCreateApiKey, type Scope } from '../api/api-keys';
import { ApiFailure } from '../../shared/api/client';
import { CheckboxChoices } from '../../shared/components/checkbox-choices';
import { ShownOnceDialog } from '../../shared/components/dialogs';
import { FormFooter } from '../../shared/components/form-footer';

/** A name and the scopes, checked one by one; the new key then shows once in a dialog. */
export function CreateApiKeyForm({ organizationId }: { organizationId: string }) {
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
