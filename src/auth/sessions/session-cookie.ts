/**
 * The console's session cookie. `__Host-` makes the browser insist on Secure, Path=/ and no
 * Domain; httpOnly keeps it from page scripts; SameSite=Strict keeps other sites' requests
 * from carrying it.
 */
export const SESSION_COOKIE = '__Host-tm_console';

const ATTRIBUTES = 'Path=/; HttpOnly; Secure; SameSite=Strict';

/** The Set-Cookie value that stores `secret` until `expiresAt`. */
export function sessionCookie(secret: string, expiresAt: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${secret}; ${ATTRIBUTES}; Max-Age=${maxAge}`;
}

/** The Set-Cookie value that makes the browser forget the session. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;
}

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The session secret a Cookie header carries, or null (absent or not of the secret's form). */
export function sessionSecretFrom(cookieHeader: string | undefined): string | null {
  if (cookieHeader === undefined) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return SECRET.test(value) ? value : null;
  }
  return null;
}
