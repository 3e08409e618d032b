import { DataSource } from 'typeorm';
import { SIGN_IN_FLOW_COOKIE, signInFlowCookie } from '../../src/auth/oidc/sign-in-flow-cookie.js';
import { ADMIN_TOKEN, HTTPS, startApp, type TestApp } from '../support/app.js';
import { freePort } from '../support/process.js';

const OPTIONS = '/internal/v1/session/options';
const START = '/internal/v1/session/oidc';
const CALLBACK = '/internal/v1/session/oidc/callback';
const SESSION_COOKIE = '__Host-tm_console';

/** A flow cookie as `start` would have set it, for a callback to bring back. */
function flowCookie(state: string): string {
  const setCookie = signInFlowCookie(
    {
      state,
      nonce: 'nonce-0123456789',
      codeVerifier: 'verifier-0123456789012345678901234567890123456789',
      redirect: '/console/organizations',
      replaces: null,
      expiresAt: Date.now() + 60_000,
    },
    ADMIN_TOKEN,
  );
  return setCookie.split(';')[0];
}

const setCookies = (res: { headers: Record<string, unknown> }): string[] =>
  ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []);

describe('OIDC sign-in routes', () => {
  describe('without OIDC_ISSUER', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp();
    });
    afterAll(() => t.close());

    it('tells the sign-in page to use the operator token, without a session', async () => {
      const res = await t.http.get(OPTIONS).set(HTTPS);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ method: 'token', provider: null });
    });

    it.each([START, CALLBACK])('answers 404 on %s', async (path) => {
      const res = await t.http.get(path).set(HTTPS);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('not_found');
    });
  });

  it('answers 404 on the options without an operator token (no internal API)', async () => {
    const t = await startApp({ ADMIN_TOKEN: '' });
    try {
      expect((await t.http.get(OPTIONS).set(HTTPS)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  describe('with a provider that cannot be reached', () => {
    let t: TestApp;
    let sessions: () => Promise<number>;
    beforeAll(async () => {
      t = await startApp({
        PUBLIC_URL: 'https://tm.example.com',
        OIDC_ISSUER: `http://127.0.0.1:${await freePort()}`,
        OIDC_CLIENT_ID: 'tm-console',
        OIDC_CLIENT_SECRET: 'routes-test-client-secret',
        OIDC_OPERATOR_GROUP: 'tm-operators',
        OIDC_PROVIDER_NAME: 'Example SSO',
      });
      const db = t.app.get(DataSource);
      sessions = async () =>
        Number((await db.query('SELECT count(*) AS n FROM console_session'))[0].n);
    });
    afterAll(() => t.close());

    it('starts anyway, and names the provider to the sign-in page', async () => {
      const res = await t.http.get(OPTIONS).set(HTTPS);
      expect(res.body).toEqual({ method: 'oidc', provider: 'Example SSO' });
    });

    it('refuses the operator token’s sign-in with 403 and no cookie', async () => {
      const res = await t.http.post('/internal/v1/session').set(HTTPS).send({ token: ADMIN_TOKEN });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('invalid_request');
      expect(setCookies(res)).toEqual([]);
    });

    it('sends the browser back to sign-in when the provider is down, with no flow', async () => {
      const res = await t.http.get(`${START}?redirect=/console/runs/1`).set(HTTPS);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/console/sign-in?refused=provider_unavailable');
      expect(setCookies(res)).toEqual([]);
    });

    it.each([
      ['no flow in the browser', '', 'state=s&code=c', 'expired'],
      [
        'a flow of another key',
        `${SIGN_IN_FLOW_COOKIE}=${'A'.repeat(80)}`,
        'state=s&code=c',
        'expired',
      ],
      ['another state', flowCookie('the-right-state'), 'state=another&code=c', 'state'],
      ['no state', flowCookie('the-right-state'), 'code=c', 'state'],
      ['a repeated state', flowCookie('s'), 'state=s&state=s&code=c', 'state'],
      ['the provider’s error', flowCookie('s'), 'state=s&error=access_denied', 'provider_error'],
      ['an unreachable provider', flowCookie('s'), 'state=s&code=c', 'provider_unavailable'],
    ])(
      'refuses a callback with %s: sign-in page, flow ended, no session',
      async (_n, cookie, query, reason) => {
        const before = await sessions();
        const res = await t.http
          .get(`${CALLBACK}?${query}`)
          .set({ ...HTTPS, ...(cookie ? { Cookie: cookie } : {}) });
        expect(res.status).toBe(302);
        expect(res.headers.location).toBe(`/console/sign-in?refused=${reason}`);
        expect(res.headers['cache-control']).toBe('no-store');
        const cookies = setCookies(res);
        expect(cookies).toEqual([
          expect.stringMatching(new RegExp(`^${SIGN_IN_FLOW_COOKIE}=;.*Max-Age=0$`)),
        ]);
        expect(cookies.some((c) => c.startsWith(SESSION_COOKIE))).toBe(false);
        expect(await sessions()).toBe(before);
      },
      15_000,
    );
  });
});
