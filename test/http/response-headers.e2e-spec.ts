import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createTenant } from '../factories/organizations.js';
import {
  ADMIN_TOKEN,
  HTTPS,
  listenOnLoopback,
  OPERATOR,
  startApp,
  withKey,
  type TestApp,
} from '../support/app.js';

const WEBHOOK_URL = 'http://127.0.0.1:9/hook';

/** Writes `request` on a raw connection and answers everything the server sent back. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

describe('response headers (CONTRACT §1)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    port = await listenOnLoopback(t);
  });
  afterAll(() => t.close());

  describe('X-Content-Type-Options: nosniff', () => {
    it('is on every answer of the application, whatever its status or maker', async () => {
      const { key } = await createTenant(t);
      const script = /src="\/console\/(assets\/[^"]+\.js)"/.exec(
        readFileSync('dist/console/index.html', 'utf8'),
      )?.[1];
      const answers = await Promise.all([
        t.http.get('/healthz'),
        t.http.get('/readyz'),
        t.http.get('/metrics'),
        t.http.get('/api/v1/organizations').set(withKey(key)),
        t.http.get('/api/v1/organizations'),
        t.http.get('/api/v1/organizations').set(HTTPS),
        t.http.get('/api/v1/no-such-route').set(HTTPS),
        t.http.get('/elsewhere').set(HTTPS),
        t.http.get('/api/v1/openapi').set(HTTPS),
        t.http.get('/console').set(HTTPS),
        t.http.get('/console/organizations').set(HTTPS),
        t.http.get(`/console/${script}`).set(HTTPS),
        t.http
          .post('/internal/v1/organizations')
          .set({ ...OPERATOR, 'Content-Type': 'application/json' })
          .send('{"name":'),
      ]);
      expect(answers.map((res) => res.status)).toEqual([
        200, 200, 200, 200, 403, 401, 404, 404, 308, 301, 200, 200, 400,
      ]);
      for (const res of answers) expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('is on the answers written outside the application too', async () => {
      const notHttp = await raw(port, 'NOT HTTP AT ALL\r\n\r\n');
      expect(notHttp).toMatch(/^HTTP\/1\.1 400 /);
      expect(notHttp).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);

      const expectation = await raw(
        port,
        'GET /healthz HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\n\r\n',
      );
      expect(expectation).toMatch(/^HTTP\/1\.1 417 /);
      expect(expectation).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
      expect(JSON.parse(expectation.slice(expectation.indexOf('\r\n\r\n') + 4))).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
        details: { field: 'Expect' },
      });
    });
  });

  describe('Cache-Control: no-store', () => {
    it('is on a new API key, and on its idempotent replay', async () => {
      const { org } = await createTenant(t);
      const create = () =>
        t.http
          .post(`/internal/v1/organizations/${org.id}/api-keys`)
          .set(OPERATOR)
          .set('Idempotency-Key', `key-of-${org.id}`)
          .send({ name: 'ci', scopes: ['builds:read'] });
      const created = await create();
      expect(created.status).toBe(201);
      expect(created.body.key).toMatch(/^svc_live_/);
      expect(created.headers['cache-control']).toBe('no-store');
      const replayed = await create();
      expect(replayed.status).toBe(201);
      expect(replayed.headers['cache-control']).toBe('no-store');
    });

    it('is on a new subscription, through either API', async () => {
      const { org, key } = await createTenant(t, ['webhooks:manage']);
      const answers = [
        await t.http
          .post('/api/v1/webhooks')
          .set(withKey(key))
          .send({ url: WEBHOOK_URL, events: ['*'] }),
        await t.http
          .post(`/internal/v1/organizations/${org.id}/webhooks`)
          .set(OPERATOR)
          .send({ url: WEBHOOK_URL, events: ['*'] }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(201);
        expect(res.body.secret).toEqual(expect.any(String));
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });

    it('is on the console session’s answers, which carry its CSRF token', async () => {
      const from = { ...HTTPS, 'X-Forwarded-For': '192.0.2.77' };
      const signedIn = await t.http
        .post('/internal/v1/session')
        .set(from)
        .send({ token: ADMIN_TOKEN });
      expect(signedIn.status).toBe(201);
      expect(signedIn.body.csrf_token).toEqual(expect.any(String));
      expect(signedIn.headers['cache-control']).toBe('no-store');
      const cookie = String(signedIn.headers['set-cookie']).split(';')[0];

      const described = await t.http.get('/internal/v1/session').set(from).set('Cookie', cookie);
      expect(described.status).toBe(200);
      expect(described.body.csrf_token).toBe(signedIn.body.csrf_token);
      expect(described.headers['cache-control']).toBe('no-store');
    });
  });
});
