import type { APIRequestContext, APIResponse, Page } from 'playwright-core';
import { CONSOLE_TOKEN } from './stack.js';

/** The operator's token, for the internal API called outside the browser. */
export const OPERATOR = { Authorization: `Bearer ${CONSOLE_TOKEN}` };

/**
 * The answer's JSON once it has `status` (201, created, unless told); anything else stops the
 * test with what the service said.
 */
export async function json<T>(response: Promise<APIResponse>, status = 201): Promise<T> {
  const res = await response;
  if (res.status() !== status) throw new Error(`${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An organization, created by the operator. */
export function seedOrganization(
  outside: APIRequestContext,
  data: { name: string; plan: string },
): Promise<{ id: string; name: string }> {
  return json(outside.post('/internal/v1/organizations', { headers: OPERATOR, data }));
}

/** A key of the organization's for a pipeline, with `scopes`; the key itself, shown once. */
export async function seedApiKey(
  outside: APIRequestContext,
  organizationId: string,
  scopes: string[],
): Promise<string> {
  const { key } = await json<{ key: string }>(
    outside.post(`/internal/v1/organizations/${organizationId}/api-keys`, {
      headers: OPERATOR,
      data: { name: 'pipeline', scopes },
    }),
  );
  return key;
}

/** A project of the organization's, created by the operator. */
export function seedProject(
  outside: APIRequestContext,
  organizationId: string,
  data: { name: string; key: string; description?: string },
): Promise<{ id: string; name: string }> {
  return json(
    outside.post(`/internal/v1/organizations/${organizationId}/projects`, {
      headers: OPERATOR,
      data,
    }),
  );
}

/** Signs the browser in with the operator token, from the sign-in page it is on. */
export async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Operator token').fill(CONSOLE_TOKEN);
  await page.keyboard.press('Enter');
}
