import { HTTPS, startApp } from './support/app.js';

describe('APP_ROLE', () => {
  it('worker serves only the probes, not the API', async () => {
    const t = await startApp({ APP_ROLE: 'worker' });
    try {
      expect((await t.http.get('/healthz')).status).toBe(200);
      expect((await t.http.get('/readyz')).status).toBe(200);
      expect((await t.http.get('/metrics')).status).toBe(200);
      for (const path of ['/api/v1/organizations', '/internal/v1/organizations']) {
        const res = await t.http.get(path).set(HTTPS);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('not_found');
      }
    } finally {
      await t.close();
    }
  });

  it('api serves the API', async () => {
    const t = await startApp({ APP_ROLE: 'api' });
    try {
      expect((await t.http.get('/api/v1/organizations').set(HTTPS)).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
