import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { organization, useUpdateOrganization } from '../api/organizations';
import { OrganizationNav } from '../../shared/components/organization-nav';
import { BackToOrganizations } from '../../shared/components/page-head';
import { readState } from '../../shared/components/states';
import { OrganizationForm } from '../components/organization-form';

export function EditOrganizationPage({ id }: { id: string }) {
  const navigate = useNavigate();
  const current = useQuery(organization(id));
  const update = useUpdateOrganization(id);

  let body = readState(current, {
    what: 'the organization',
    missing: 'There is no such organization.',
  });
  if (current.isSuccess) {
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
      <p>
        <BackToOrganizations />
      </p>
      <h1>{current.data ? `Edit ${current.data.name}` : 'Edit organization'}</h1>
      {current.data ? <OrganizationNav organizationId={id} /> : null}
      {body}
    </>
  );
}
