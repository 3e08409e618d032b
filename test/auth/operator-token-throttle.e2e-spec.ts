import { Logger } from '@nestjs/common';
import { SIGN_IN_FAILURES_ALLOWED } from '../../src/auth/sessions/sign-in-throttle.js';
import { ADMIN_TOKEN, HTTPS, startApp, type TestApp } from '../support/app.js';

/** Each test guesses from an address of its own (through the trusted loopback proxy). */
let addresses = 0;
const fromNewAddress = () => ({ ...HTTPS, 'X-Forwarded-For': `198.51.100.${++addresses}` });
const ORGANIZATIONS = '/internal/v1/organizations';
/** A body over 16 KiB: its credential is checked before the body is read. */
const LARGE_BODY = JSON.stringify({ name: 'x'.repeat(20_000), plan: 'pro' });

describe('guessing the operator token', () => {
  let t: TestApp;
  const warnings: string[] = [];
  const originalWarn = Logger.prototype.warn;
  beforeAll(async () => {
    t = await startApp();
    Logger.prototype.warn = function (this: Logger, message: unknown, ...rest: unknown[]) {
      warnings.push(String(message));
      return originalWarn.call(this, message, ...rest);
    };
  });
  afterAll(async () => {
    Logger.prototype.warn = originalWarn;
    await t.close();
  });

  const bearer = (from: Record<string, string>, token: string) =>
    t.http.get(ORGANIZATIONS).set(from).set('Authorization', `Bearer ${token}`);

  it('counts each wrong bearer token against the address, then refuses even the right one (429)', async () => {
    const from = fromNewAddress();
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i++) {
      const res = await bearer(from, `wrong-guess-${i}`);
      expect(res.status).toBe(401);
    }
    const locked = await bearer(from, ADMIN_TOKEN);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      error: 'rate_limit_exceeded',
      message: expect.any(String),
      details: expect.objectContaining({ limit: SIGN_IN_FAILURES_ALLOWED }),
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    // The same throttle as the console's sign-in.
    const signIn = await t.http.post('/internal/v1/session').set(from).send({ token: ADMIN_TOKEN });
    expect(signIn.status).toBe(429);
    // Only that address.
    expect((await bearer(fromNewAddress(), ADMIN_TOKEN)).status).toBe(200);
    const logged = warnings.filter((w) => w.includes(`from ${from['X-Forwarded-For']} (`));
    expect(logged).toHaveLength(SIGN_IN_FAILURES_ALLOWED);
  });

  it('counts wrong sign-ins, bearer tokens and large bodies’ tokens together', async () => {
    const from = fromNewAddress();
    const signIn = await t.http.post('/internal/v1/session').set(from).send({ token: 'wrong' });
    expect(signIn.status).toBe(401);
    for (let i = 1; i < SIGN_IN_FAILURES_ALLOWED; i++) {
      const res = await t.http
        .post(ORGANIZATIONS)
        .set(from)
        .set('Authorization', `Bearer wrong-guess-${i}`)
        .set('Content-Type', 'application/json')
        .send(LARGE_BODY);
      expect(res.status).toBe(401);
    }
    const locked = await t.http
      .post(ORGANIZATIONS)
      .set(from)
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Content-Type', 'application/json')
      .send(LARGE_BODY);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBe('rate_limit_exceeded');
    expect((await bearer(from, ADMIN_TOKEN)).status).toBe(429);
  });
});
