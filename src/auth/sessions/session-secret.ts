import { createHmac, randomBytes } from 'node:crypto';
import { secretsEqual } from '../api-key-format.js';

/** A new session secret: 32 random bytes, base64url (what the cookie carries). */
export function generateSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of a secret: its HMAC keyed with the operator token. A copy of the
 * table proves nothing without the token, and changing the token ends every session opened
 * with the old one (their cookies no longer hash to a stored row).
 */
export function hashSessionSecret(secret: string, operatorToken: string): string {
  return createHmac('sha256', operatorToken).update(secret).digest('hex');
}

/**
 * The session's CSRF token, derived from its secret: the page reads it from the session's
 * JSON and echoes it in a header on every state-changing call. Another site can make the
 * browser send the cookie but can neither read the token nor compute it.
 */
export function csrfTokenOf(secret: string): string {
  return createHmac('sha256', secret).update('console-csrf-v1').digest('base64url');
}

/** Whether `given` is the session's CSRF token, compared in constant time. */
export function csrfTokenMatches(secret: string, given: string | undefined): boolean {
  return given !== undefined && secretsEqual(given, csrfTokenOf(secret));
}
