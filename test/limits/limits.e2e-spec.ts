import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { billingPeriodFor } from '../../src/limits/billing-period.js';
import { MonthlyQuotaService } from '../../src/limits/monthly-quota.service.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import { freshMinuteWindow } from '../support/minute-window.js';

describe('monthly quota', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('lets call N through and refuses call N+1 with the monthly details, without counting it', async () => {
    const { org, key } = await createTenant(t, ['builds:read'], { monthly_call_limit: 3 });
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.http.get('/api/v1/organizations').set(withKey(key));
      statuses.push(res.status);
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    expect(statuses).toEqual([200, 200, 200]);
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await t.http.get('/api/v1/organizations').set(withKey(key));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'rate_limit_exceeded',
      message: expect.any(String),
      details: { limit: 3, reset_at: expect.stringMatching(/T00:00:00\.000Z$/), window: 'month' },
    });
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['x-ratelimit-reset'])).toBe(
      Date.parse(refused.body.details.reset_at) / 1000,
    );
    expect(refused.headers['retry-after']).toBeUndefined();

    const usage = await t.http
      .get(`/internal/v1/organizations/${org.id}`)
      .set(OPERATOR)
      .expect(200);
    expect(usage.body.calls_this_period).toBe(3);
  });

  it('follows a raised limit at once', async () => {
    const { org, key } = await createTenant(t, ['builds:read'], { monthly_call_limit: 1 });
    await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
    await t.http.get('/api/v1/organizations').set(withKey(key)).expect(429);
    await t.http
      .patch(`/internal/v1/organizations/${org.id}`)
      .set(OPERATOR)
      .send({ monthly_call_limit: 2 })
      .expect(200);
    await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
  });

  it('uses the plan’s limit once a custom limit is cleared', async () => {
    const { org, key } = await createTenant(t, ['builds:read'], { monthly_call_limit: 7 });
    await t.http
      .patch(`/internal/v1/organizations/${org.id}`)
      .set(OPERATOR)
      .send({ monthly_call_limit: null })
      .expect(200);
    const res = await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('1000');
    expect(res.body.data[0].monthly_call_limit).toBe(1000);
  });

  it('counts every admitted call, whatever its outcome', async () => {
    const { org, key } = await createTenant(t, ['projects:read'], { monthly_call_limit: 10 });
    await t.http.get('/api/v1/organizations?limit=abc').set(withKey(key)).expect(400);
    await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
    const usage = await t.http.get(`/internal/v1/organizations/${org.id}`).set(OPERATOR);
    expect(usage.body.calls_this_period).toBe(2);
  });

  it('is exact under concurrency across two replicas: 50 calls against a limit of 20 → 20 pass', async () => {
    const replica = await startApp();
    try {
      const { org, key } = await createTenant(t, ['builds:read'], { monthly_call_limit: 20 });
      const calls = Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? t : replica).http.get('/api/v1/organizations').set(withKey(key)),
      );
      const statuses = (await Promise.all(calls)).map((res) => res.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30);
      const rows = await t.app
        .get(DataSource)
        .query(
          'SELECT sum(calls)::int AS calls FROM organization_usage WHERE organization_id = $1',
          [org.id],
        );
      expect(rows[0].calls).toBe(20);
    } finally {
      await replica.close();
    }
  });

  it('stays exact when both replicas already know the key (authenticated and counted in one statement)', async () => {
    const replica = await startApp();
    try {
      const { org, key } = await createTenant(t, ['builds:read'], { monthly_call_limit: 20 });
      for (const app of [t, replica])
        await app.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      // From here on no call takes the separate counting statement.
      const separately = [t, replica].map((app) =>
        jest.spyOn(app.app.get(MonthlyQuotaService), 'consume'),
      );
      const calls = Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? t : replica).http.get('/api/v1/organizations').set(withKey(key)),
      );
      const responses = await Promise.all(calls);
      const passed = responses.filter((res) => res.status === 200);
      expect(passed).toHaveLength(18);
      expect(responses.filter((res) => res.status === 429)).toHaveLength(32);
      expect(passed.map((res) => Number(res.headers['x-ratelimit-remaining'])).sort()).toEqual(
        Array.from({ length: 18 }, (_, i) => i).sort(),
      );
      const usage = await t.http.get(`/internal/v1/organizations/${org.id}`).set(OPERATOR);
      expect(usage.body.calls_this_period).toBe(20);
      for (const spy of separately) expect(spy).not.toHaveBeenCalled();
    } finally {
      await replica.close();
    }
  });

  it('survives a restart: the count lives in PostgreSQL', async () => {
    const { key } = await createTenant(t, ['builds:read'], { monthly_call_limit: 2 });
    const first = await startApp();
    await first.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
    await first.close();
    const second = await startApp();
    try {
      await second.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      await second.http.get('/api/v1/organizations').set(withKey(key)).expect(429);
    } finally {
      await second.close();
    }
  });
});

describe('monthly quota across a period boundary', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    jest.useRealTimers();
    await t.close();
  });

  it('starts the next period at zero: calls counted in the previous one do not count', async () => {
    const anchor = '2025-01-10T08:30:00.000Z';
    const { org, key } = await createTenant(t, ['builds:read'], {
      monthly_call_limit: 2,
      subscription_started_at: anchor,
    });
    const current = billingPeriodFor(new Date(anchor), new Date());
    const call = () => t.http.get('/api/v1/organizations').set(withKey(key));
    const usage = async () =>
      (
        await t.app
          .get(DataSource)
          .query(
            'SELECT period_start, calls FROM organization_usage WHERE organization_id = $1 ORDER BY period_start',
            [org.id],
          )
      ).map((row: { period_start: Date; calls: number }) => [
        row.period_start.toISOString(),
        row.calls,
      ]);

    for (let i = 0; i < 2; i++) await call().expect(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.body.details.reset_at).toBe(current.end.toISOString());

    // The service reads the time from Date (it runs in this process): move only Date past the
    // reset, timers stay real. Its period is now the next one, keyed by its own start.
    jest.useFakeTimers({
      now: current.end.getTime() + 60_000,
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
    try {
      const next = billingPeriodFor(new Date(anchor), new Date());
      expect(next.start.toISOString()).toBe(current.end.toISOString());
      const first = await call();
      expect(first.status).toBe(200);
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
      expect(first.headers['x-ratelimit-reset']).toBe(String(next.end.getTime() / 1000));
      expect(first.body.data[0].calls_this_period).toBe(1);
      await call().expect(200);
      const again = await call();
      expect(again.status).toBe(429);
      expect(again.body.details.reset_at).toBe(next.end.toISOString());
    } finally {
      jest.useRealTimers();
    }
    expect(await usage()).toEqual([
      [current.start.toISOString(), 2],
      [current.end.toISOString(), 2],
    ]);
  });
});

describe('per-minute limit', () => {
  it('refuses the call over RATE_LIMIT_PER_MINUTE with Retry-After and the minute details', async () => {
    const t = await startApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const { org, key } = await createTenant(t, ['builds:read']);
      const window = await freshMinuteWindow();
      for (let i = 0; i < 3; i++)
        await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      const before = Date.now();
      const res = await t.http.get('/api/v1/organizations').set(withKey(key));
      const after = Date.now();
      expect(res.status).toBe(429);
      expect(res.body).toEqual({
        error: 'rate_limit_exceeded',
        message: expect.any(String),
        details: { limit: 3, retry_after: expect.any(Number), window: 'minute' },
      });
      // Whole seconds to the end of the window, as read by the service between our two reads.
      const windowEnd = (window + 1) * 60_000;
      const retryAfter = res.body.details.retry_after;
      expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Math.ceil((windowEnd - after) / 1000)));
      expect(retryAfter).toBeLessThanOrEqual(Math.ceil((windowEnd - before) / 1000));
      expect(res.headers['retry-after']).toBe(String(retryAfter));
      // The monthly headers are still there, and the refused call was not counted monthly.
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
      expect(res.headers['x-ratelimit-remaining']).toBe('997');
      const usage = await t.http.get(`/internal/v1/organizations/${org.id}`).set(OPERATOR);
      expect(usage.body.calls_this_period).toBe(3);

      // Another organization has its own minute.
      const other = await createTenant(t, ['builds:read']);
      await t.http.get('/api/v1/organizations').set(withKey(other.key)).expect(200);
    } finally {
      await t.close();
    }
  });

  it.each(['memory', 'redis'])(
    'does not charge the organization’s minute for calls with a key deleted meanwhile (%s store)',
    async (store) => {
      const t = await startApp({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_STORE: store });
      try {
        const { org, key, keyId } = await createTenant(t, ['builds:read']);
        const other = await createApiKey(t, org.id);
        await freshMinuteWindow();
        await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
        await t.http.delete(`/internal/v1/api-keys/${keyId}`).set(OPERATOR).expect(204);
        for (let i = 0; i < 2; i++)
          await t.http.get('/api/v1/organizations').set(withKey(key)).expect(401);
        for (let i = 0; i < 2; i++)
          await t.http.get('/api/v1/organizations').set(withKey(other.key)).expect(200);
        await t.http.get('/api/v1/organizations').set(withKey(other.key)).expect(429);
      } finally {
        await t.close();
      }
    },
  );

  it('counts per process with the memory store', async () => {
    const a = await startApp({ RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_STORE: 'memory' });
    const b = await startApp({ RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_STORE: 'memory' });
    try {
      const { key } = await createTenant(a, ['builds:read']);
      await freshMinuteWindow();
      const statuses = [];
      for (const app of [a, a, b, b, a])
        statuses.push((await app.http.get('/api/v1/organizations').set(withKey(key))).status);
      // Each process lets its own two through; the third on the same process is refused.
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('is shared by all replicas with the redis store', async () => {
    const a = await startApp({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_STORE: 'redis' });
    const b = await startApp({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_STORE: 'redis' });
    try {
      const { key } = await createTenant(a, ['builds:read']);
      await freshMinuteWindow();
      const statuses = [];
      for (const app of [a, b, a, b])
        statuses.push((await app.http.get('/api/v1/organizations').set(withKey(key))).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);

  it('admits exactly the limit when two replicas share the redis store under concurrency', async () => {
    const settings = { RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_STORE: 'redis' };
    const a = await startApp(settings);
    const b = await startApp(settings);
    try {
      const { org, key } = await createTenant(a, ['builds:read']);
      // Both replicas learn the key first (the minute is then counted before the look-up).
      await freshMinuteWindow(20_000);
      for (const app of [a, b])
        await app.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 === 0 ? a : b).http.get('/api/v1/organizations').set(withKey(key)),
        ),
      );
      expect(responses.filter((res) => res.status === 200)).toHaveLength(3);
      const refused = responses.filter((res) => res.status === 429);
      expect(refused).toHaveLength(27);
      for (const res of refused) {
        expect(res.body).toEqual({
          error: 'rate_limit_exceeded',
          message: expect.any(String),
          details: { limit: 5, retry_after: res.body.details.retry_after, window: 'minute' },
        });
        expect(res.body.details.retry_after).toBeGreaterThanOrEqual(1);
        expect(res.body.details.retry_after).toBeLessThanOrEqual(60);
        expect(res.headers['retry-after']).toBe(String(res.body.details.retry_after));
      }
      // Refused calls are not counted monthly: the five admitted ones are.
      const usage = await a.http.get(`/internal/v1/organizations/${org.id}`).set(OPERATOR);
      expect(usage.body.calls_this_period).toBe(5);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});

describe('per-minute limit with the Redis store and Redis away', () => {
  it('lets calls through (the monthly quota still counts them)', async () => {
    const t = await startApp({
      RATE_LIMIT_PER_MINUTE: '1',
      RATE_LIMIT_STORE: 'redis',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    try {
      const { org, key } = await createTenant(t, ['builds:read']);
      for (let i = 0; i < 3; i++)
        await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      const usage = await t.http.get(`/internal/v1/organizations/${org.id}`).set(OPERATOR);
      expect(usage.body.calls_this_period).toBe(3);
    } finally {
      await t.close();
    }
  });
});

describe('usage in the internal organization list', () => {
  it('reports each organization’s own calls this period', async () => {
    const t = await startApp();
    try {
      const a = await createTenant(t, ['builds:read'], { name: 'usage-a' });
      const b = await createTenant(t, ['builds:read'], {
        name: 'usage-b',
        subscription_started_at: '2024-02-29T00:00:00Z',
      });
      for (let i = 0; i < 2; i++)
        await t.http.get('/api/v1/organizations').set(withKey(a.key)).expect(200);
      await t.http.get('/api/v1/organizations').set(withKey(b.key)).expect(200);
      const list = await t.http
        .get('/internal/v1/organizations?limit=100')
        .set(OPERATOR)
        .expect(200);
      const calls = Object.fromEntries(
        list.body.data
          .filter((o: { id: string }) => [a.org.id, b.org.id].includes(o.id))
          .map((o: { name: string; calls_this_period: number }) => [o.name, o.calls_this_period]),
      );
      expect(calls).toEqual({ 'usage-a': 2, 'usage-b': 1 });
    } finally {
      await t.close();
    }
  });
});

describe('keys across replicas', () => {
  it('refuses a key on another replica on its very next request after deletion', async () => {
    const a = await startApp();
    const b = await startApp();
    try {
      const { keyId, key } = await createTenant(a, ['builds:read']);
      await b.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      await a.http.delete(`/internal/v1/api-keys/${keyId}`).set(OPERATOR).expect(204);
      await b.http.get('/api/v1/organizations').set(withKey(key)).expect(401);
      await a.http.get('/api/v1/organizations').set(withKey(key)).expect(401);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
