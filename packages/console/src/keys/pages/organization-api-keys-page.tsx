import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { organizationApiKeys, type ApiKey } from '../api/api-keys';
import { organization } from '../../organizations/api/organizations';
import { Pager } from '../../shared/components/pager';
import { listState, PastLast } from '../../shared/components/states';
import { OrganizationPageHead } from '../../shared/components/page-head';
import { utcMinute } from '../../shared/formats';
import { CreateApiKeyForm } from '../components/create-api-key-form';
import { DeleteApiKeyDialog } from '../components/delete-api-key-dialog';

const API_KEYS_PAGE_SIZE = 25;

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
      {deleting ? <DeleteApiKeyDialog apiKey={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}
