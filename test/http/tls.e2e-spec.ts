import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { startApp, type TestApp } from '../support/app.js';

function get(
  port: number,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path, rejectUnauthorized: false, servername: 'localhost' },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('TLS termination in the process', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    // TRUST_PROXY=false: only the TLS socket itself can make a request secure.
    t = await startApp({ TLS_SELF_SIGNED: 'true', TRUST_PROXY: 'false' });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('serves the API over real TLS with HSTS', async () => {
    const res = await get(port, '/api/v1/no-such-route');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({
      error: 'not_found',
      message: expect.any(String),
      details: {},
    });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('serves the probes over the same TLS listener', async () => {
    const res = await get(port, '/healthz');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
  });
});
