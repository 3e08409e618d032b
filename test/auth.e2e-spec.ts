import { type AddressInfo, connect } from 'node:net';
import { DataSource } from 'typeorm';
import { createApiKey, createTenant } from './factories/organizations.js';
import { HTTPS, OPERATOR, startApp, withKey, type TestApp } from './support/app.js';
import { AuthProbeModule } from './support/probe.module.js';

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

describe('authentication and scopes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({}, [AuthProbeModule]);
  });
  afterAll(() => t.close());

  describe('401 unauthorized', () => {
    let key: string;
    let deletedKey: string;

    beforeAll(async () => {
      const tenant = await createTenant(t, ['builds:read']);
      key = tenant.key;
      const deleted = await createApiKey(t, tenant.org.id, ['builds:read']);
      deletedKey = deleted.key;
      await t.http.delete(`/internal/v1/api-keys/${deleted.id}`).set(OPERATOR).expect(204);
    });

    const cases: Array<[string, (key: string, deleted: string) => string | undefined]> = [
      ['a missing header', () => undefined],
      ['another scheme', (k) => `Token ${k}`],
      ['a lowercase scheme', (k) => `bearer ${k}`],
      ['two spaces', (k) => `Bearer  ${k}`],
      ['a wrong prefix', (k) => `Bearer ${k.replace('svc_live_', 'svc_test_')}`],
      [
        'uppercase hex',
        (k) => `Bearer ${k.replace('svc_live_', '').toUpperCase().replace(/^/, 'svc_live_')}`,
      ],
      ['an unknown key', () => `Bearer svc_live_${'0'.repeat(64)}`],
      ['a deleted key', (_k, d) => `Bearer ${d}`],
      ['an empty bearer', () => 'Bearer '],
    ];

    it.each(cases)(
      'refuses %s with WWW-Authenticate and no rate-limit headers',
      async (_name, header) => {
        const req = t.http.get('/api/v1/organizations').set(HTTPS);
        const value = header(key, deletedKey);
        if (value !== undefined) req.set('Authorization', value);
        const res = await req;
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          error: 'unauthorized',
          message: expect.any(String),
          details: {},
        });
        expect(res.headers['www-authenticate']).toBe('Bearer');
        for (const name of RATE_HEADERS) expect(res.headers[name]).toBeUndefined();
      },
    );

    it('accepts the same key sent correctly', async () => {
      expect((await t.http.get('/api/v1/organizations').set(withKey(key))).status).toBe(200);
    });

    it('refuses two Authorization headers with 400, even when both hold the valid key', async () => {
      for (const second of [`Bearer ${key}`, 'Bearer nonsense']) {
        const res = await t.http
          .get('/api/v1/organizations')
          .set(HTTPS)
          .set('Authorization', [`Bearer ${key}`, second] as unknown as string); // a line each
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid_request',
          message: expect.any(String),
          details: {
            field: 'Authorization',
            errors: [{ field: 'Authorization', message: expect.any(String) }],
          },
        });
      }
    });
  });

  describe('bodies of requests without a valid credential', () => {
    let port: number;
    let key: string;
    beforeAll(async () => {
      key = (await createTenant(t, ['builds:create'])).key;
      await t.app.listen(0, '127.0.0.1');
      port = (t.app.getHttpServer().address() as AddressInfo).port;
    });

    /**
     * Sends only the head of a request announcing a body of 10 MiB (and 1 KiB of it), and
     * answers the status line the server sends without waiting for the rest, or 'no answer'
     * when the server waits for the body (as it must for a valid key).
     */
    function headOnly(path: string, authorization?: string): Promise<string> {
      return new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        const timer = setTimeout(() => finish('no answer'), 1500);
        const finish = (result: string) => {
          clearTimeout(timer);
          socket.destroy();
          resolve(result);
        };
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
          if (answer.includes('\r\n')) finish(answer.slice(0, answer.indexOf('\r\n')));
        });
        socket.on('error', () => finish(answer || 'connection error'));
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\n` +
            'Content-Type: application/json\r\nContent-Length: 10485760\r\n' +
            (authorization ? `Authorization: ${authorization}\r\n` : '') +
            `\r\n{"name": "${'x'.repeat(1024)}`,
        );
      });
    }

    it('answers 401 without reading a large body when the key is missing, malformed or unknown', async () => {
      for (const authorization of [
        undefined,
        'Bearer nonsense',
        `Bearer svc_live_${'0'.repeat(64)}`,
      ]) {
        expect(await headOnly('/api/v1/builds', authorization)).toBe('HTTP/1.1 401 Unauthorized');
      }
      expect(await headOnly('/internal/v1/organizations', 'Bearer wrong-operator-token')).toBe(
        'HTTP/1.1 401 Unauthorized',
      );
    });

    it('reads a large body for a valid key or operator token', async () => {
      expect(await headOnly('/api/v1/builds', `Bearer ${key}`)).toBe('no answer');
      expect(await headOnly('/internal/v1/organizations', OPERATOR.Authorization)).toBe(
        'no answer',
      );
    });
  });

  describe('403', () => {
    it('refuses a Basic-plan organization with plan_required on every endpoint', async () => {
      const { key } = await createTenant(t, ['builds:read'], { plan: 'basic' });
      for (const path of ['/api/v1/organizations', '/api/v1/auth-probe/builds']) {
        const res = await t.http.get(path).set(withKey(key));
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          error: 'plan_required',
          message: expect.any(String),
          details: { plan: 'basic' },
        });
      }
    });

    it('refuses a key without the scope, naming the scopes that would do', async () => {
      const { key } = await createTenant(t, ['builds:read']);
      const res = await t.http
        .post('/api/v1/auth-probe/builds')
        .set(withKey(key))
        .send({ name: 'x' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        message: expect.any(String),
        details: { required_scopes: ['builds:create', 'builds:update'] },
      });
    });

    it('accepts any one of the required scopes', async () => {
      const { key } = await createTenant(t, ['builds:update']);
      const res = await t.http
        .post('/api/v1/auth-probe/builds')
        .set(withKey(key))
        .send({ name: 'x' });
      expect(res.status).toBe(201);
    });
  });

  describe('order of checks', () => {
    it('checks HTTPS before the key', async () => {
      const res = await t.http.get('/api/v1/organizations').set('Authorization', 'garbage');
      expect(res.body.error).toBe('https_required');
    });

    it('checks the plan before the scope', async () => {
      const { key } = await createTenant(t, ['projects:read'], { plan: 'basic' });
      const res = await t.http.get('/api/v1/auth-probe/builds').set(withKey(key));
      expect(res.body.error).toBe('plan_required');
    });

    it('checks the rate limits before the scope', async () => {
      const { key } = await createTenant(t, ['projects:read'], { monthly_call_limit: 1 });
      await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      const res = await t.http.get('/api/v1/auth-probe/builds').set(withKey(key));
      expect(res.status).toBe(429);
    });

    it('checks the scope before validating the body', async () => {
      const { key } = await createTenant(t, ['builds:read']);
      const res = await t.http
        .post('/api/v1/auth-probe/builds')
        .set(withKey(key))
        .send({ wrong: true });
      expect(res.body.error).toBe('insufficient_scope');
    });

    it('validates the body once the key may call the route', async () => {
      const { key } = await createTenant(t, ['builds:create']);
      const res = await t.http
        .post('/api/v1/auth-probe/builds')
        .set(withKey(key))
        .send({ wrong: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    });
  });

  it('refuses a route that declares no access rule (fails closed)', async () => {
    const { key } = await createTenant(t, ['builds:read']);
    const res = await t.http.get('/api/v1/auth-probe/undeclared').set(withKey(key));
    expect(res.status).toBe(500);
    expect(res.body).not.toHaveProperty('leaked');
  });

  describe('rate-limit headers', () => {
    it('are on 200, 400, 403 and 404 responses and count down', async () => {
      const { key } = await createTenant(t, ['builds:read'], { monthly_call_limit: 50 });
      const responses = [
        await t.http.get('/api/v1/organizations').set(withKey(key)),
        await t.http.get('/api/v1/organizations?limit=0').set(withKey(key)),
        await t.http.post('/api/v1/auth-probe/builds').set(withKey(key)).send({ name: 'x' }),
        await t.http
          .get('/api/v1/auth-probe/things/0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c')
          .set(withKey(key)),
      ];
      expect(responses.map((r) => r.status)).toEqual([200, 400, 403, 404]);
      responses.forEach((res, i) => {
        expect(res.headers['x-ratelimit-limit']).toBe('50');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(50 - (i + 1)));
        expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      });
    });

    it('report the monthly reset of the organization’s billing period', async () => {
      const anchor = new Date(Date.UTC(2024, 0, 31, 15, 0, 0));
      const { key } = await createTenant(t, ['builds:read'], {
        subscription_started_at: anchor.toISOString(),
      });
      const res = await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      const reset = new Date(Number(res.headers['x-ratelimit-reset']) * 1000);
      expect(reset.toISOString()).toBe(res.body.data[0].period_reset_at);
      expect(reset.getUTCHours()).toBe(0);
      const lastDay = new Date(
        Date.UTC(reset.getUTCFullYear(), reset.getUTCMonth() + 1, 0),
      ).getUTCDate();
      expect(reset.getUTCDate()).toBe(Math.min(31, lastDay));
    });
  });
});

describe('GET /api/v1/organizations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('lists only the key’s own organization, with its usage', async () => {
    const started = '2026-03-31T00:00:00.000Z';
    const mine = await createTenant(t, ['webhooks:manage'], {
      plan: 'enterprise',
      subscription_started_at: started,
    });
    const other = await createTenant(t, ['builds:read']);

    await t.http.get('/api/v1/organizations').set(withKey(mine.key)).expect(200);
    const res = await t.http.get('/api/v1/organizations').set(withKey(mine.key)).expect(200);
    expect(res.body).toEqual({
      data: [
        {
          id: mine.org.id,
          name: mine.org.name,
          plan: 'enterprise',
          subscription_started_at: started,
          monthly_call_limit: 10000,
          calls_this_period: 2,
          period_reset_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/),
          webhook_limit: null,
          created_at: expect.stringMatching(/Z$/),
          updated_at: expect.stringMatching(/Z$/),
        },
      ],
      pagination: { total: 1, limit: 25, offset: 0, has_more: false },
    });
    expect(res.headers['x-ratelimit-remaining']).toBe('9998');

    const theirs = await t.http.get('/api/v1/organizations').set(withKey(other.key)).expect(200);
    expect(theirs.body.data.map((o: { id: string }) => o.id)).toEqual([other.org.id]);
    expect(theirs.body.data[0]).toMatchObject({
      plan: 'pro',
      monthly_call_limit: 1000,
      webhook_limit: 5,
      calls_this_period: 1,
    });
  });

  it('pages its one-item list like every other list', async () => {
    const { key } = await createTenant(t);
    const res = await t.http
      .get('/api/v1/organizations?offset=1&limit=1')
      .set(withKey(key))
      .expect(200);
    expect(res.body).toEqual({
      data: [],
      pagination: { total: 1, limit: 1, offset: 1, has_more: false },
    });
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
      ['foo=1', 'foo'],
    ]) {
      const bad = await t.http.get(`/api/v1/organizations?${query}`).set(withKey(key));
      expect(bad.status).toBe(400);
      expect(bad.body.details.field).toBe(field);
    }
  });

  it('records last_used_at at most once a minute', async () => {
    const tenant = await createTenant(t);
    const db = t.app.get(DataSource);
    const lastUsed = async () =>
      (await db.query('SELECT last_used_at FROM api_key WHERE id = $1', [tenant.keyId]))[0]
        .last_used_at as Date | null;
    expect(await lastUsed()).toBeNull();

    await t.http.get('/api/v1/organizations').set(withKey(tenant.key)).expect(200);
    let first: Date | null = null;
    for (let i = 0; i < 50 && first === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      first = await lastUsed();
    }
    expect(first).not.toBeNull();

    for (let i = 0; i < 5; i++)
      await t.http.get('/api/v1/organizations').set(withKey(tenant.key)).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await lastUsed())?.getTime()).toBe(first?.getTime());

    // A minute later (simulated by ageing the stored value) another replica records the use again.
    await db.query(`UPDATE api_key SET last_used_at = now() - interval '2 minutes' WHERE id = $1`, [
      tenant.keyId,
    ]);
    const replica = await startApp();
    try {
      await replica.http.get('/api/v1/organizations').set(withKey(tenant.key)).expect(200);
      let refreshed: Date | null = null;
      for (let i = 0; i < 50; i++) {
        refreshed = await lastUsed();
        if (refreshed && Date.now() - refreshed.getTime() < 30_000) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(Date.now() - (refreshed as Date).getTime()).toBeLessThan(30_000);
    } finally {
      await replica.close();
    }
  });
});
