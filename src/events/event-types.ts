/** The event types of SPEC "Events", with what each describes. */
export const EVENT_TYPES = [
  {
    type: 'build.created.v1',
    resource: 'build',
    description: 'A build was created, from the user interface or the API.',
  },
  { type: 'testrun.created.v1', resource: 'test_run', description: 'A test run was created.' },
  { type: 'testrun.submitted.v1', resource: 'test_run', description: 'A test run was submitted.' },
  {
    type: 'testrun.completed.v1',
    resource: 'test_run',
    description: 'A test run was marked completed.',
  },
  {
    type: 'testrun.reopened.v1',
    resource: 'test_run',
    description: 'A submitted or completed test run was reopened: it takes results again.',
  },
  {
    type: 'testcase.failed.v1',
    resource: 'result',
    description: 'A test case execution recorded a failed result.',
  },
  {
    type: 'release.released.v1',
    resource: 'release',
    description: 'A release’s status changed to completed.',
  },
  {
    type: 'testcase.quarantined.v1',
    resource: 'quarantine_entry',
    description: 'A test case was put in quarantine, or its quarantine changed.',
  },
  {
    type: 'testcase.unquarantined.v1',
    resource: 'quarantine_entry',
    description: 'A test case was taken out of quarantine.',
  },
] as const;

export type EventType = (typeof EVENT_TYPES)[number]['type'];
export const EVENT_TYPE_NAMES: readonly string[] = EVENT_TYPES.map((e) => e.type);
