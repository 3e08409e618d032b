import type { TestApp } from '../support/app.js';
import { OPERATOR } from '../support/app.js';

export interface OrganizationFixture {
  id: string;
  name: string;
  plan: string;
}

let counter = 0;

/** An organization made through the internal API, as the UI would. */
export async function createOrganization(
  t: Pick<TestApp, 'http'>,
  fields: {
    plan?: string;
    monthly_call_limit?: number | null;
    subscription_started_at?: string;
    name?: string;
  } = {},
): Promise<OrganizationFixture> {
  const res = await t.http
    .post('/internal/v1/organizations')
    .set(OPERATOR)
    .send({ name: `Org ${++counter}`, plan: 'pro', ...fields });
  if (res.status !== 201) throw new Error(`organization not created: ${res.status} ${res.text}`);
  return res.body;
}

/** A key of `organizationId` with `scopes`; returns the plaintext and the key's id. */
export async function createApiKey(
  t: Pick<TestApp, 'http'>,
  organizationId: string,
  scopes: string[] = ['builds:read'],
): Promise<{ id: string; key: string }> {
  const res = await t.http
    .post(`/internal/v1/organizations/${organizationId}/api-keys`)
    .set(OPERATOR)
    .send({ name: `key ${++counter}`, scopes });
  if (res.status !== 201) throw new Error(`key not created: ${res.status} ${res.text}`);
  return { id: res.body.id, key: res.body.key };
}

/** An organization on `plan` with one key of `scopes`. */
export async function createTenant(
  t: Pick<TestApp, 'http'>,
  scopes: string[] = ['builds:read'],
  fields: Parameters<typeof createOrganization>[1] = {},
): Promise<{ org: OrganizationFixture; key: string; keyId: string }> {
  const org = await createOrganization(t, fields);
  const { id, key } = await createApiKey(t, org.id, scopes);
  return { org, key, keyId: id };
}
