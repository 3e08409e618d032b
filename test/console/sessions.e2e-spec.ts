import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ADMIN_TOKEN, HTTPS, OPERATOR, startApp, type TestApp } from '../support/app.js';

const SESSION = '/internal/v1/session';
/** What the table keeps of a session's secret: its HMAC keyed with the operator token. */
const storedHash = (secret: string, token = ADMIN_TOKEN) =>
  createHmac('sha256', token).update(secret).digest('hex');
const COOKIE_NAME = '__Host-tm_console';

/** Each test signs in from an address of its own, so the failure counts never mix. */
let addresses = 0;
const fromNewAddress = () => ({ ...HTTPS, 'X-Forwarded-For': `203.0.113.${++addresses}` });

interface SignedIn {
  cookie: string;
  secret: string;
  csrf: string;
  setCookie: string;
  from: Record<string, string>;
}

describe('console sessions', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await startApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function signIn(from = fromNewAddress()): Promise<SignedIn> {
    const res = await t.http.post(SESSION).set(from).send({ token: ADMIN_TOKEN });
    expect(res.status).toBe(201);
    const setCookie = String(res.headers['set-cookie']);
    const secret = new RegExp(`^${COOKIE_NAME}=([^;]+);`).exec(setCookie)?.[1] ?? '';
    return {
      cookie: `${COOKIE_NAME}=${secret}`,
      secret,
      csrf: res.body.csrf_token,
      setCookie,
      from,
    };
  }

  const withSession = (s: SignedIn, extra: Record<string, string> = {}) => ({
    ...s.from,
    Cookie: s.cookie,
    ...extra,
  });

  describe('signing in with the operator token', () => {
    it('sets an httpOnly, Secure, SameSite=Strict cookie that expires with the session', async () => {
      const before = Date.now();
      const s = await signIn();
      expect(s.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const attributes = s.setCookie.split(';').map((part) => part.trim());
      expect(attributes).toEqual(
        expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Strict']),
      );
      expect(attributes.some((a) => a.startsWith('Domain='))).toBe(false);
      const maxAge = Number(attributes.find((a) => a.startsWith('Max-Age='))?.slice(8));
      expect(maxAge).toBeGreaterThan(11.9 * 3600);
      expect(maxAge).toBeLessThanOrEqual(12 * 3600);

      const described = await t.http.get(SESSION).set(withSession(s));
      expect(described.status).toBe(200);
      expect(described.body).toEqual({
        method: 'token',
        subject: 'operator',
        email: null,
        expires_at: expect.any(String),
        csrf_token: s.csrf,
      });
      const expiresIn = Date.parse(described.body.expires_at) - before;
      expect(expiresIn).toBeGreaterThan(11.9 * 3600_000);
      expect(expiresIn).toBeLessThanOrEqual(12 * 3600_000 + 5_000);
    });

    it('stores only a hash of the session secret, and never the token', async () => {
      const s = await signIn();
      const hash = storedHash(s.secret);
      const rows = await db.query('SELECT * FROM console_session WHERE secret_hash = $1', [hash]);
      expect(rows).toHaveLength(1);
      const everything = JSON.stringify(await db.query('SELECT * FROM console_session'));
      expect(everything).not.toContain(s.secret);
      expect(everything).not.toContain(ADMIN_TOKEN);
      expect(everything).not.toContain(s.csrf);
    });

    it('ends every session opened with the operator token once the token changes', async () => {
      const s = await signIn();
      expect((await t.http.get('/internal/v1/organizations').set(withSession(s))).status).toBe(200);
      // The same database, restarted with another token: the old cookie opens nothing.
      const rotated = await startApp({ ADMIN_TOKEN: 'another-operator-token-9876543210' });
      try {
        const res = await rotated.http.get('/internal/v1/organizations').set(withSession(s));
        expect(res.status).toBe(401);
        expect((await rotated.http.get(SESSION).set(withSession(s))).status).toBe(401);
      } finally {
        await rotated.close();
      }
      // Under its own token the session is still there: nothing but the key changed.
      expect((await t.http.get(SESSION).set(withSession(s))).status).toBe(200);
    });

    it('ends the session the browser held when it signs in again', async () => {
      const first = await signIn();
      const again = await t.http.post(SESSION).set(withSession(first)).send({ token: ADMIN_TOKEN });
      expect(again.status).toBe(201);
      expect(again.body.csrf_token).not.toBe(first.csrf);
      expect((await t.http.get(SESSION).set(withSession(first))).status).toBe(401);
    });

    it('refuses a wrong token with 401 and sets no cookie', async () => {
      const res = await t.http
        .post(SESSION)
        .set(fromNewAddress())
        .send({ token: `${ADMIN_TOKEN}x` });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a missing token with 400', async () => {
      const res = await t.http.post(SESSION).set(fromNewAddress()).send({});
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe('token');
    });

    it('makes an address wait after five wrong tokens, even with the right one, and only that address', async () => {
      const from = fromNewAddress();
      for (let i = 0; i < 5; i++) {
        const res = await t.http
          .post(SESSION)
          .set(from)
          .send({ token: `wrong-${i}` });
        expect(res.status).toBe(401);
      }
      const locked = await t.http.post(SESSION).set(from).send({ token: ADMIN_TOKEN });
      expect(locked.status).toBe(429);
      expect(locked.body.error).toBe('rate_limit_exceeded');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
      expect(locked.headers['set-cookie']).toBeUndefined();
      await signIn(fromNewAddress());
    });

    it('does not exist without an operator token configured', async () => {
      const off = await startApp({ ADMIN_TOKEN: '' });
      try {
        const res = await off.http.post(SESSION).set(HTTPS).send({ token: 'anything-at-all' });
        expect(res.status).toBe(404);
      } finally {
        await off.close();
      }
    });
  });

  describe('calling the internal API with the session', () => {
    it('reads with the cookie alone', async () => {
      const s = await signIn();
      const res = await t.http.get('/internal/v1/organizations').set(withSession(s));
      expect(res.status).toBe(200);
      expect(res.body.pagination).toBeDefined();
    });

    it.each([
      ['no CSRF header', {}],
      ['a wrong CSRF token', { 'X-CSRF-Token': 'not-the-token' }],
      ['an empty CSRF token', { 'X-CSRF-Token': '' }],
    ])('refuses a change with %s (403) and changes nothing', async (_name, header) => {
      const s = await signIn();
      const before = await db.query('SELECT count(*)::int AS n FROM organization');
      const res = await t.http
        .post('/internal/v1/organizations')
        .set(withSession(s, header))
        .send({ name: 'Forged Inc', plan: 'pro' });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('csrf_token_invalid');
      expect(await db.query('SELECT count(*)::int AS n FROM organization')).toEqual(before);
    });

    it('refuses another session’s CSRF token', async () => {
      const mine = await signIn();
      const theirs = await signIn();
      const res = await t.http
        .post('/internal/v1/organizations')
        .set(withSession(mine, { 'X-CSRF-Token': theirs.csrf }))
        .send({ name: 'Crossed Inc', plan: 'pro' });
      expect(res.status).toBe(403);
    });

    it('creates and changes with the session’s CSRF token', async () => {
      const s = await signIn();
      const created = await t.http
        .post('/internal/v1/organizations')
        .set(withSession(s, { 'X-CSRF-Token': s.csrf }))
        .send({ name: 'Session Inc', plan: 'pro' });
      expect(created.status).toBe(201);
      const noCsrf = await t.http
        .patch(`/internal/v1/organizations/${created.body.id}`)
        .set(withSession(s))
        .send({ plan: 'enterprise' });
      expect(noCsrf.status).toBe(403);
      const changed = await t.http
        .patch(`/internal/v1/organizations/${created.body.id}`)
        .set(withSession(s, { 'X-CSRF-Token': s.csrf }))
        .send({ plan: 'enterprise' });
      expect(changed.status).toBe(200);
      expect(changed.body.plan).toBe('enterprise');
    });

    it('reads a body over 16 KiB sent with a live session, and not without one', async () => {
      const s = await signIn();
      const big = { name: 'x'.repeat(20_000), plan: 'pro' };
      const withIt = await t.http
        .post('/internal/v1/organizations')
        .set(withSession(s, { 'X-CSRF-Token': s.csrf }))
        .send(big);
      expect(withIt.status).toBe(400);
      expect(withIt.body.details.field).toBe('name');
      const without = await t.http.post('/internal/v1/organizations').set(HTTPS).send(big);
      expect(without.status).toBe(401);
    });

    it('lets a wrong Authorization header win over a live cookie (401)', async () => {
      const s = await signIn();
      const res = await t.http
        .get('/internal/v1/organizations')
        .set(withSession(s, { Authorization: 'Bearer not-the-operator-token' }));
      expect(res.status).toBe(401);
    });

    it.each([
      ['an unknown secret', `${COOKIE_NAME}=${'A'.repeat(43)}`],
      ['a malformed secret', `${COOKIE_NAME}=short`],
      ['the cookie under another name', `tm_console=${'A'.repeat(43)}`],
    ])('refuses %s with 401', async (_name, cookie) => {
      const res = await t.http.get('/internal/v1/organizations').set({ ...HTTPS, Cookie: cookie });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    });

    it('refuses an expired session with 401', async () => {
      const s = await signIn();
      const hash = storedHash(s.secret);
      await db.query(
        `UPDATE console_session SET expires_at = now() - interval '1 second' WHERE secret_hash = $1`,
        [hash],
      );
      const res = await t.http.get('/internal/v1/organizations').set(withSession(s));
      expect(res.status).toBe(401);
      expect((await t.http.get(SESSION).set(withSession(s))).status).toBe(401);
    });

    it('deletes expired sessions at the next sign-in', async () => {
      const old = await signIn();
      const hash = storedHash(old.secret);
      await db.query(
        `UPDATE console_session SET expires_at = now() - interval '1 hour' WHERE secret_hash = $1`,
        [hash],
      );
      await signIn();
      expect(
        await db.query('SELECT id FROM console_session WHERE secret_hash = $1', [hash]),
      ).toEqual([]);
    });
  });

  describe('signing out', () => {
    it('needs the CSRF token, then deletes the session and clears the cookie', async () => {
      const s = await signIn();
      const forged = await t.http.delete(SESSION).set(withSession(s));
      expect(forged.status).toBe(403);
      expect((await t.http.get(SESSION).set(withSession(s))).status).toBe(200);

      const out = await t.http.delete(SESSION).set(withSession(s, { 'X-CSRF-Token': s.csrf }));
      expect(out.status).toBe(204);
      expect(String(out.headers['set-cookie'])).toMatch(
        new RegExp(`^${COOKIE_NAME}=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0$`),
      );
      const after = await t.http.get('/internal/v1/organizations').set(withSession(s));
      expect(after.status).toBe(401);
      const hash = storedHash(s.secret);
      expect(
        await db.query('SELECT id FROM console_session WHERE secret_hash = $1', [hash]),
      ).toEqual([]);
    });

    it('ends only its own session', async () => {
      const mine = await signIn();
      const other = await signIn();
      await t.http
        .delete(SESSION)
        .set(withSession(mine, { 'X-CSRF-Token': mine.csrf }))
        .expect(204);
      expect((await t.http.get(SESSION).set(withSession(other))).status).toBe(200);
    });
  });

  it('still takes the operator token on the internal API', async () => {
    const res = await t.http.get('/internal/v1/limits').set(OPERATOR);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      per_minute: t.settings.rateLimitPerMinute,
      per_minute_store: 'memory',
    });
  });
});
