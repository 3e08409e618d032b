import { Tabs } from './tabs';

const PROJECT_TABS = [
  { to: '/projects/$projectId', label: 'Overview' },
  { to: '/projects/$projectId/runs', label: 'Test runs' },
  { to: '/projects/$projectId/releases', label: 'Releases' },
  { to: '/projects/$projectId/cases', label: 'Test cases' },
  { to: '/projects/$projectId/flaky-tests', label: 'Flaky tests' },
  { to: '/projects/$projectId/failures', label: 'Failure search' },
  { to: '/projects/$projectId/quarantine', label: 'Quarantine' },
  { to: '/projects/$projectId/settings', label: 'Settings' },
];

/** Links between a project's pages; the current one is marked. */
export function ProjectNav({ projectId }: { projectId: string }) {
  return <Tabs label="Project" tabs={PROJECT_TABS} params={{ projectId }} />;
}
