import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ApiFailure } from '../api/client';
import { organization, useCreateOrganization, useUpdateOrganization } from '../api/organizations';
import { LoadError, Loading, Missing } from '../components/states';
import { OrganizationForm } from './organization-form';

function BackToList() {
  return (
    <p>
      <Link to="/organizations">← Organizations</Link>
    </p>
  );
}

export function NewOrganizationPage() {
  const navigate = useNavigate();
  const create = useCreateOrganization();
  return (
    <>
      <BackToList />
      <h1>New organization</h1>
      <OrganizationForm
        submitLabel="Create organization"
        pending={create.isPending}
        error={create.error}
        onSubmit={(body) =>
          create.mutate(body, { onSuccess: () => navigate({ to: '/organizations' }) })
        }
      />
    </>
  );
}

export function EditOrganizationPage({ id }: { id: string }) {
  const navigate = useNavigate();
  const current = useQuery(organization(id));
  const update = useUpdateOrganization(id);

  let body;
  if (current.isPending) body = <Loading what="the organization" />;
  else if (current.isError && current.error instanceof ApiFailure && current.error.status === 404) {
    body = <Missing>There is no such organization.</Missing>;
  } else if (current.isError) {
    body = <LoadError error={current.error} onRetry={() => current.refetch()} />;
  } else {
    body = (
      <OrganizationForm
        key={current.data.updated_at}
        editing={current.data}
        submitLabel="Save changes"
        pending={update.isPending}
        error={update.error}
        onSubmit={(changes) =>
          update.mutate(changes, { onSuccess: () => navigate({ to: '/organizations' }) })
        }
      />
    );
  }

  return (
    <>
      <BackToList />
      <h1>{current.data ? `Edit ${current.data.name}` : 'Edit organization'}</h1>
      {current.data ? (
        <p>
          <Link to="/organizations/$organizationId/api-keys" params={{ organizationId: id }}>
            API keys
          </Link>{' '}
          ·{' '}
          <Link to="/organizations/$organizationId/projects" params={{ organizationId: id }}>
            Projects
          </Link>{' '}
          ·{' '}
          <Link to="/organizations/$organizationId/webhooks" params={{ organizationId: id }}>
            Webhooks
          </Link>
        </p>
      ) : null}
      {body}
    </>
  );
}
