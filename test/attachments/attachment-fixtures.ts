import { createHash } from 'node:crypto';
import type { Response, Test } from 'supertest';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { HTTPS, type TestApp, withKey } from '../support/app.js';

/** Bytes and how an attachment describes them. */
export function content(text: string | Buffer, name = 'log.txt', contentType = 'text/plain') {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  return {
    bytes,
    item: {
      name,
      content_type: contentType,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  };
}

/** An organization with a key, a project, and a run in progress with results for `cases`. */
export async function runWithResults(
  t: TestApp,
  cases = ['checkout.pays', 'checkout.refunds'],
  scopes = RUN_SCOPES,
) {
  const tenant = await createTenant(t, scopes);
  const project = await createProject(t, tenant.org.id);
  const run = await createRun(t, tenant.key, project.id);
  const res = await submitResults(
    t,
    tenant.key,
    run.id,
    cases.map((automation_id) => ({ automation_id, status: 'failed' })),
  );
  if (res.status !== 201) throw new Error(`results not submitted: ${res.status} ${res.text}`);
  return { ...tenant, project, run };
}

export function describeAttachments(t: TestApp, key: string, runId: string, items: object[]) {
  return t.http
    .post(`/api/v1/testruns/${runId}/attachments`)
    .set(withKey(key))
    .send({ attachments: items });
}

/** A request to one of the service's own links (absolute URL), over HTTPS through the proxy. */
export function toLink(t: TestApp, method: 'put' | 'get', url: string): Test {
  const { pathname, search } = new URL(url);
  return t.http[method](`${pathname}${search}`).set(HTTPS);
}

/** Reads a response body as bytes, whatever its type. */
export function asBytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
