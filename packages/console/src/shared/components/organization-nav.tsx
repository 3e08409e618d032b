import { Tabs } from './tabs';

const ORGANIZATION_TABS = [
  { to: '/organizations/$organizationId', label: 'Settings' },
  { to: '/organizations/$organizationId/projects', label: 'Projects' },
  { to: '/organizations/$organizationId/search', label: 'Test search' },
  { to: '/organizations/$organizationId/api-keys', label: 'API keys' },
  { to: '/organizations/$organizationId/build-queue', label: 'Build queue' },
  { to: '/organizations/$organizationId/webhooks', label: 'Webhooks' },
];

/** Links between an organization's pages; the current one is marked. */
export function OrganizationNav({ organizationId }: { organizationId: string }) {
  return <Tabs label="Organization" tabs={ORGANIZATION_TABS} params={{ organizationId }} />;
}
