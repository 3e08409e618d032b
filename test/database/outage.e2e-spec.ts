import { createTenant } from '../factories/organizations.js';
import { startApp, withKey, type TestApp } from '../support/app.js';
import { TcpProxy } from '../support/tcp-proxy.js';

/**
 * The service reaches PostgreSQL through a proxy the test controls. A database that is down,
 * restarting or unreachable must answer 503 `service_unavailable` with `Retry-After` (CONTRACT
 * §2) within bounded time, never a 500 and never a request that hangs, and the service must
 * recover by itself when the database is back.
 */
describe('database outage', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let key: string;
  const CONNECT_TIMEOUT_MS = 1000;
  const STATEMENT_TIMEOUT_MS = 1500;

  beforeAll(async () => {
    const direct = new URL(process.env.DATABASE_URL as string);
    proxy = await new TcpProxy(direct.hostname, Number(direct.port || 5432)).start();
    const viaProxy = new URL(direct);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    t = await startApp({
      DATABASE_URL: viaProxy.toString(),
      DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    });
    key = (await createTenant(t)).key;
  });
  afterAll(async () => {
    proxy.mode = 'up';
    await t.close();
    await proxy.stop();
  });
  afterEach(() => {
    proxy.mode = 'up';
  });

  async function expectUnavailable(withinMs: number): Promise<void> {
    const started = Date.now();
    const res = await t.http.get('/api/v1/organizations').set(withKey(key));
    const took = Date.now() - started;
    expect({ status: res.status, body: res.body }).toEqual({
      status: 503,
      body: { error: 'service_unavailable', message: expect.any(String), details: {} },
    });
    expect(res.headers['retry-after']).toBe('5');
    expect(took).toBeLessThan(withinMs);
  }

  const expectServed = async () =>
    expect((await t.http.get('/api/v1/organizations').set(withKey(key))).status).toBe(200);

  it('answers 503 at once while PostgreSQL refuses connections, and recovers', async () => {
    await expectServed();
    proxy.mode = 'refuse';
    proxy.cutAll();
    await expectUnavailable(CONNECT_TIMEOUT_MS + 2000);
    await expectUnavailable(CONNECT_TIMEOUT_MS + 2000);
    proxy.mode = 'up';
    await expectServed();
  });

  it('answers 503 within the connect timeout when PostgreSQL cannot be reached', async () => {
    proxy.mode = 'blackhole';
    proxy.cutAll();
    await expectUnavailable(CONNECT_TIMEOUT_MS + 3000);
    proxy.mode = 'up';
    await expectServed();
  });

  it('answers 503, not a hang, when the network drops an open connection’s answers', async () => {
    // Open connections in the pool, for the next request to use.
    await Promise.all([expectServed(), expectServed(), expectServed()]);
    // Connections stay open but nothing comes back: only the client-side time limit ends it.
    proxy.mode = 'blackhole';
    const started503 = Date.now();
    await expectUnavailable(STATEMENT_TIMEOUT_MS + 5000 + 3000);
    // It took the answer's time limit, not the connect timeout: an open connection was used.
    expect(Date.now() - started503).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS + 5000);
    // The network is back, with the connections it had: the one whose answer was lost is not
    // handed out again (its next query would wait behind the lost one), so requests are served
    // at once, several in a row on whatever connections the pool has.
    proxy.mode = 'up';
    const started = Date.now();
    for (let i = 0; i < 5; i++) await expectServed();
    expect(Date.now() - started).toBeLessThan(3000);
  }, 25_000);
});
