import {
  clearedSessionCookie,
  SESSION_COOKIE,
  sessionCookie,
  sessionSecretFrom,
} from './session-cookie.js';
import { csrfTokenMatches, csrfTokenOf, generateSessionSecret } from './session-secret.js';

describe('session cookie', () => {
  const secret = generateSessionSecret();

  it('is httpOnly, Secure, SameSite=Strict, for the whole site, until the session ends', () => {
    const cookie = sessionCookie(secret, new Date(Date.now() + 3_600_000));
    expect(cookie).toMatch(
      new RegExp(
        `^${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=(3599|3600)$`,
      ),
    );
    expect(clearedSessionCookie()).toMatch(/Max-Age=0$/);
  });

  it.each([
    ['alone', `${SESSION_COOKIE}=${secret}`, secret],
    ['among others', `a=1; ${SESSION_COOKIE}=${secret}; b=2`, secret],
    ['absent', 'a=1; b=2', null],
    ['not of the secret’s form', `${SESSION_COOKIE}=${secret}!`, null],
    ['under a longer name', `x${SESSION_COOKIE}=${secret}`, null],
  ])('finds the secret %s in a Cookie header', (_name, header, expected) => {
    expect(sessionSecretFrom(header)).toBe(expected);
  });

  it('has a CSRF token of its own that only its secret matches', () => {
    const token = csrfTokenOf(secret);
    expect(csrfTokenMatches(secret, token)).toBe(true);
    expect(csrfTokenMatches(generateSessionSecret(), token)).toBe(false);
    expect(csrfTokenMatches(secret, undefined)).toBe(false);
    expect(csrfTokenMatches(secret, token.slice(1))).toBe(false);
  });
});
