import { applyDecorators, Header, SetMetadata } from '@nestjs/common';

export const SHOWN_ONCE_METADATA = 'idempotency:shown-once';

/**
 * Names the fields of a route's response that hold a secret shown only once (an API key's
 * `key`, a subscription's `secret`). The response kept for an idempotent replay has them as
 * null (CONTRACT §8): a secret is never written anywhere but as its hash, or where its use
 * needs it. The response is `Cache-Control: no-store` (CONTRACT §1), so no cache between the
 * service and the client keeps the secret either.
 */
export const ShownOnce = (...fields: string[]) =>
  applyDecorators(SetMetadata(SHOWN_ONCE_METADATA, fields), Header('Cache-Control', 'no-store'));

/** `body` as it may be stored: every shown-once field set to null. */
export function withoutSecrets(body: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields?.length || typeof body !== 'object' || body === null) return body;
  const stored: Record<string, unknown> = { ...body };
  for (const field of fields) if (field in stored) stored[field] = null;
  return stored;
}
