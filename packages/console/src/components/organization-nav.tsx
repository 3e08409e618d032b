import { Link } from '@tanstack/react-router';

/** Links between an organization's pages; the current one is marked. */
export function OrganizationNav({ organizationId }: { organizationId: string }) {
  const params = { organizationId };
  const current = { 'aria-current': 'page' as const, className: 'current' };
  return (
    <nav className="tabs" aria-label="Organization">
      <Link
        to="/organizations/$organizationId"
        params={params}
        activeOptions={{ exact: true }}
        activeProps={current}
      >
        Settings
      </Link>
      <Link to="/organizations/$organizationId/projects" params={params} activeProps={current}>
        Projects
      </Link>
      <Link to="/organizations/$organizationId/api-keys" params={params} activeProps={current}>
        API keys
      </Link>
      <Link to="/organizations/$organizationId/build-queue" params={params} activeProps={current}>
        Build queue
      </Link>
      <Link to="/organizations/$organizationId/webhooks" params={params} activeProps={current}>
        Webhooks
      </Link>
    </nav>
  );
}
