import type { TestApp } from '../support/app.js';
import { withKey } from '../support/app.js';

export const RUN_SCOPES = [
  'testruns:create',
  'testruns:read',
  'testruns:update',
  'results:submit',
  'results:read',
  'projects:read',
];

export async function createRun(
  t: TestApp,
  key: string,
  projectId: string,
  fields: object = {},
): Promise<{ id: string; counts: Record<string, number>; status: string }> {
  const res = await t.http
    .post('/api/v1/testruns')
    .set(withKey(key))
    .send({ project_id: projectId, name: 'Run', ...fields });
  if (res.status !== 201) throw new Error(`run not created: ${res.status} ${res.text}`);
  return res.body;
}

export function submitResults(
  t: TestApp,
  key: string,
  runId: string,
  results: object[],
  complete?: boolean,
) {
  return t.http
    .post(`/api/v1/testruns/${runId}/results`)
    .set(withKey(key))
    .send(complete === undefined ? { results } : { results, complete });
}
