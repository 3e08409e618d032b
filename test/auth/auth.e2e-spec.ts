import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import type supertest from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository.js';
import { SCOPES } from '../../src/routes/scopes.js';
import { createProject } from '../factories/catalog.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { createRun } from '../factories/runs.js';
import {
  listenOnLoopback,
  HTTPS,
  OPERATOR,
  startApp,
  withKey,
  type TestApp,
} from '../support/app.js';
import { AuthProbeModule } from '../support/probe.module.js';
import { pollUntil } from '../support/service-control.js';

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
      port = await listenOnLoopback(t);
    });

    /**
     * Sends the head of a request announcing a body of 1 MiB (over the 16 KiB read before the
     * credential is checked) and `sent` bytes of that body, and answers the status line and
     * body of the server's answer, or 'no answer' if none comes within 10 s. The answer to a
     * partial body can only come before the body is read.
     */
    function rawPost(
      path: string,
      authorization: string | undefined,
      sent: 'head and 1 KiB' | 'the whole body',
    ): Promise<{ status: string; body: string }> {
      const json = JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 12) });
      const payload = sent === 'the whole body' ? json : json.slice(0, 1024);
      return new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        const timer = setTimeout(() => finish(), 10_000);
        const finish = () => {
          clearTimeout(timer);
          socket.destroy();
          const end = answer.indexOf('\r\n');
          resolve(
            end < 0
              ? { status: answer || 'no answer', body: '' }
              : {
                  status: answer.slice(0, end),
                  body: answer.slice(answer.indexOf('\r\n\r\n') + 4),
                },
          );
        };
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
          // The whole answer is in once its JSON body closes (every answer here is an envelope).
          if (/\r\n\r\n\{.*\}$/s.test(answer)) finish();
        });
        socket.on('error', () => finish());
        socket.on('close', () => finish());
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
            (authorization ? `Authorization: ${authorization}\r\n` : '') +
            `\r\n${payload}`,
        );
      });
    }

    it('answers 401 without reading a large body when the key is missing, malformed or unknown', async () => {
      for (const authorization of [
        undefined,
        'Bearer nonsense',
        `Bearer svc_live_${'0'.repeat(64)}`,
      ]) {
        const res = await rawPost('/api/v1/builds', authorization, 'head and 1 KiB');
        expect(res.status).toBe('HTTP/1.1 401 Unauthorized');
      }
      const operator = await rawPost(
        '/internal/v1/organizations',
        'Bearer wrong-operator-token',
        'head and 1 KiB',
      );
      expect(operator.status).toBe('HTTP/1.1 401 Unauthorized');
    });

    it('answers 401 without reading a compressed body, however small, when the key is unknown', async () => {
      // 10 MiB of JSON gzip to about 10 KB: under the size read before the key is checked,
      // but the parser would inflate and parse all of it.
      const gz = gzipSync(JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024 - 12) }));
      expect(gz.length).toBeLessThan(16 * 1024);
      const status = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        const timer = setTimeout(() => done('no answer'), 10_000);
        const done = (result: string) => {
          clearTimeout(timer);
          socket.destroy();
          resolve(result);
        };
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
          if (answer.includes('\r\n')) done(answer.slice(0, answer.indexOf('\r\n')));
        });
        socket.on('error', () => done(answer || 'connection error'));
        socket.write(
          `POST /api/v1/builds HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\n` +
            `Content-Type: application/json\r\nContent-Encoding: gzip\r\n` +
            `Content-Length: ${gz.length}\r\nAuthorization: Bearer svc_live_${'0'.repeat(64)}\r\n\r\n`,
        );
        // Half the body: an answer now means the body was not waited for.
        socket.write(gz.subarray(0, gz.length >> 1));
      });
      expect(status).toBe('HTTP/1.1 401 Unauthorized');
    });

    it('answers 404 to a large body for the internal API when it is off, as to any request', async () => {
      const off = await startApp({ ADMIN_TOKEN: '' });
      try {
        const offPort = await listenOnLoopback(off);
        const res = await fetch(`http://127.0.0.1:${offPort}/internal/v1/organizations`, {
          method: 'POST',
          headers: {
            'X-Forwarded-Proto': 'https',
            'Content-Type': 'application/json',
            Authorization: 'Bearer some-guess-at-a-token',
          },
          body: JSON.stringify({ name: 'x'.repeat(64 * 1024) }),
        });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({
          error: 'not_found',
          message: expect.any(String),
          details: {},
        });
      } finally {
        await off.close();
      }
    });

    it('reads a large body for a valid key or operator token (its answer is about the body)', async () => {
      // A 400 naming a field of the body can only come from reading the body to its end.
      const build = await rawPost('/api/v1/builds', `Bearer ${key}`, 'the whole body');
      expect(build.status).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(build.body).details.field).toBe('name');
      const org = await rawPost(
        '/internal/v1/organizations',
        OPERATOR.Authorization,
        'the whole body',
      );
      expect(org.status).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(org.body).details.field).toMatch(/^(name|plan)$/);
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

  describe('scopes of the test-run and result routes (CONTRACT §3)', () => {
    let org: string;
    let runId: string;
    beforeAll(async () => {
      const tenant = await createTenant(t, ['testruns:create']);
      org = tenant.org.id;
      const project = await createProject(t, org);
      runId = (await createRun(t, tenant.key, project.id)).id;
    });

    const routes: Array<{
      route: string;
      required: string[];
      call: (key: string) => supertest.Test;
      passes: number;
    }> = [
      {
        route: 'GET /api/v1/testruns',
        required: ['testruns:read'],
        call: (key) => t.http.get('/api/v1/testruns').set(withKey(key)),
        passes: 200,
      },
      {
        route: 'GET /api/v1/testruns/{id}',
        required: ['testruns:read'],
        call: (key) => t.http.get(`/api/v1/testruns/${runId}`).set(withKey(key)),
        passes: 200,
      },
      {
        route: 'GET /api/v1/testruns/{id}/results',
        required: ['results:read', 'testruns:read'],
        call: (key) => t.http.get(`/api/v1/testruns/${runId}/results`).set(withKey(key)),
        passes: 200,
      },
      {
        route: 'POST /api/v1/results/ingest',
        required: ['results:submit'],
        call: (key) =>
          t.http
            .post('/api/v1/results/ingest')
            .set(withKey(key))
            .send({ test_run_id: runId, results: [{ automation_id: 'a', status: 'passed' }] }),
        passes: 201,
      },
    ];

    it.each(routes)(
      '$route refuses a key with every other scope (403 naming $required)',
      async ({ required, call }) => {
        const others = SCOPES.filter((scope) => !required.includes(scope));
        const { key } = await createApiKey(t, org, others);
        const res = await call(key);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          error: 'insufficient_scope',
          message: expect.any(String),
          details: { required_scopes: required },
        });
      },
    );

    it.each(routes.flatMap((r) => r.required.map((scope) => ({ ...r, scope }))))(
      '$route admits a key with just $scope',
      async ({ scope, call, passes }) => {
        const { key } = await createApiKey(t, org, [scope]);
        const res = await call(key);
        expect({ status: res.status, error: res.body.error }).toEqual({
          status: passes,
          error: undefined,
        });
      },
    );
  });

  describe('order of checks', () => {
    it('checks HTTPS before the key', async () => {
      const res = await t.http.get('/api/v1/organizations').set('Authorization', 'garbage');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'https_required',
        message: expect.any(String),
        details: {},
      });
    });

    it('checks the plan before the scope', async () => {
      const { key } = await createTenant(t, ['projects:read'], { plan: 'basic' });
      const res = await t.http.get('/api/v1/auth-probe/builds').set(withKey(key));
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('plan_required');
    });

    it('checks the rate limits before the scope', async () => {
      const { key } = await createTenant(t, ['projects:read'], { monthly_call_limit: 1 });
      await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      const res = await t.http.get('/api/v1/auth-probe/builds').set(withKey(key));
      expect(res.status).toBe(429);
      expect(res.body.details.window).toBe('month');
    });

    it('checks the scope before validating the body', async () => {
      const { key } = await createTenant(t, ['builds:read']);
      const res = await t.http
        .post('/api/v1/auth-probe/builds')
        .set(withKey(key))
        .send({ wrong: true });
      expect(res.status).toBe(403);
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
    expect(res.body).toEqual({
      error: 'internal_error',
      message: expect.any(String),
      details: { request_id: res.headers['x-request-id'] },
    });
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
    const [{ now: before }] = await db.query('SELECT now()');
    expect(await lastUsed()).toBeNull();

    await t.http.get('/api/v1/organizations').set(withKey(tenant.key)).expect(200);
    // The write is not awaited by the request: wait for it to land.
    await pollUntil(async () => (await lastUsed()) !== null, 'the first last_used_at', 10_000);
    const first = (await lastUsed()) as Date;
    expect(first.getTime()).toBeGreaterThanOrEqual((before as Date).getTime());

    // Whether a call writes is decided before its answer: no write started means none lands.
    const writes = jest.spyOn(t.app.get(ApiKeysRepository), 'touch');
    try {
      for (let i = 0; i < 5; i++)
        await t.http.get('/api/v1/organizations').set(withKey(tenant.key)).expect(200);
      expect(writes).not.toHaveBeenCalled();
    } finally {
      writes.mockRestore();
    }
    expect((await lastUsed())?.getTime()).toBe(first.getTime());

    // A minute later (simulated by ageing the stored value) another replica records the use again.
    await db.query(`UPDATE api_key SET last_used_at = now() - interval '2 minutes' WHERE id = $1`, [
      tenant.keyId,
    ]);
    const [{ now: aged }] = await db.query('SELECT now()');
    const replica = await startApp();
    try {
      // The same spy sees the write that is due (so its silence above means something).
      const due = jest.spyOn(replica.app.get(ApiKeysRepository), 'touch');
      await replica.http.get('/api/v1/organizations').set(withKey(tenant.key)).expect(200);
      expect(due).toHaveBeenCalledTimes(1);
      await pollUntil(
        async () => ((await lastUsed())?.getTime() ?? 0) >= (aged as Date).getTime(),
        'last_used_at recorded again by the replica',
        10_000,
      );
    } finally {
      await replica.close();
    }
  });
});
