import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'svc_live_';
/** The only credential form accepted: exactly `Bearer svc_live_<lowercase hex, 32+ chars>`. */
const BEARER_API_KEY = /^Bearer (svc_live_[0-9a-f]{32,})$/;
/** Characters of a key kept (in clear) for display in key lists. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** `svc_live_` + 64 hex characters (32 random bytes). */
export function generateApiKey(): NewApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('hex')}`;
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

/** The key in an Authorization header, or null when the header is not exactly `Bearer <key>`. */
export function apiKeyFromAuthorization(header: string | undefined): string | null {
  const match = header === undefined ? null : BEARER_API_KEY.exec(header);
  return match ? match[1] : null;
}

/** Whether an Authorization header is exactly `Bearer <operator token>`, compared in constant time. */
export function bearsOperatorToken(header: string | undefined, token: string): boolean {
  return (
    header !== undefined &&
    header.startsWith('Bearer ') &&
    secretsEqual(header.slice('Bearer '.length), token)
  );
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );
}
