import { useNavigate } from '@tanstack/react-router';
import { useCreateOrganization } from '../api/organizations';
import { BackToOrganizations } from '../../shared/components/page-head';
import { OrganizationForm } from '../components/organization-form';

export function NewOrganizationPage() {
  const navigate = useNavigate();
  const create = useCreateOrganization();
  return (
    <>
      <p>
        <BackToOrganizations />
      </p>
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
