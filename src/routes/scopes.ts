/** Every scope an API key can carry (SPEC "Scopes" plus CONTRACT's `testruns:update`). */
export const SCOPES = [
  'builds:read',
  'builds:create',
  'builds:update',
  'testruns:read',
  'testruns:create',
  'testruns:update',
  'results:read',
  'results:submit',
  'projects:read',
  'webhooks:manage',
  'quarantine:manage',
] as const;

export type Scope = (typeof SCOPES)[number];
