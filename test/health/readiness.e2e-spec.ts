import { startApp, type TestApp } from '../support/app.js';

describe('readiness', () => {
  it('is ready when PostgreSQL and Redis answer', async () => {
    const t = await startApp();
    try {
      const res = await t.http.get('/readyz');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    } finally {
      await t.close();
    }
  });

  describe('with Redis pointed at a closed port', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    });
    afterAll(() => t.close());

    it('answers 503 service_unavailable naming Redis', async () => {
      const res = await t.http.get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: 'service_unavailable',
        message: expect.stringMatching(/redis/),
        details: {},
      });
    });

    it('stays alive', async () => {
      expect((await t.http.get('/healthz')).status).toBe(200);
    });
  });

  describe('with PostgreSQL gone', () => {
    it('answers 503 naming the database', async () => {
      // API only: this is about the HTTP process noticing; the worker's relay has tests of its own.
      const t = await startApp({ APP_ROLE: 'api' });
      try {
        // Simulate the database going away under a running process.
        const { DataSource } = await import('typeorm');
        await t.app.get(DataSource).destroy();
        const res = await t.http.get('/readyz');
        expect(res.status).toBe(503);
        expect(res.body.message).toMatch(/database/);
      } finally {
        await t.close().catch(() => undefined);
      }
    });
  });

  it('shuts a worker-running app down promptly after its database went away', async () => {
    const t = await startApp({ APP_ROLE: 'all' });
    const { DataSource } = await import('typeorm');
    await t.app.get(DataSource).destroy();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
