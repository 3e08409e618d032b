import { Agent, request } from 'node:http';
import { listenOnLoopback, startApp, type TestApp } from '../support/app.js';

/** `GET /healthz` on `agent`: the status, and whether it went over a connection used before. */
function healthz(port: number, agent: Agent): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('idle keep-alive connections', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startApp();
    port = await listenOnLoopback(t);
  });
  afterAll(() => t.close());

  // A proxy in front reuses its idle upstream connections for up to 60 s; had the service
  // closed one after Node's default 5 s, the proxy's next request on it would fail (a 502).
  it('stay open past Node’s default 5 s, so a proxy can reuse them', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, timeout: 120_000 });
    try {
      expect(await healthz(port, agent)).toEqual({ status: 200, reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6_500));
      expect(await healthz(port, agent)).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});
