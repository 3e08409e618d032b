import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import { freePort, spawnService, waitForOutput, type ServiceProcess } from '../support/process.js';
import { DRILL_ADMIN_TOKEN } from '../support/service-control.js';

const HSTS = 'max-age=31536000; includeSubDomains';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  peerFingerprint: string;
}

/** One HTTPS request trusting only `ca` (certificate checks on, name checked as localhost). */
function httpsCall(
  port: number,
  ca: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        ca,
        servername: 'localhost',
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
        },
        timeout: 15_000,
      },
      (res) => {
        const peer = (res.socket as TLSSocket).getPeerCertificate();
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            peerFingerprint: peer.fingerprint256,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A plain-HTTP request to the TLS port: resolves with the status, rejects with the error. */
function plainCall(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, timeout: 15_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

describe('TLS terminated in the process from TLS_CERT_FILE and TLS_KEY_FILE', () => {
  let dir: string;
  let cert: string;
  let port: number;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tm-tls-'));
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    cert = pems.cert;
    writeFileSync(join(dir, 'cert.pem'), pems.cert);
    writeFileSync(join(dir, 'key.pem'), pems.private, { mode: 0o600 });
    port = await freePort();
    // TRUST_PROXY=false: only the TLS socket itself can make a request secure.
    service = spawnService({
      PORT: String(port),
      TLS_CERT_FILE: join(dir, 'cert.pem'),
      TLS_KEY_FILE: join(dir, 'key.pem'),
      TRUST_PROXY: 'false',
      APP_ROLE: 'api',
      ADMIN_TOKEN: DRILL_ADMIN_TOKEN,
    });
    await waitForOutput(service, /Listening on https:/, 30_000);
  }, 60_000);

  afterAll(async () => {
    const child = service?.child;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGKILL');
      await service?.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the certificate from the files, trusted as its own CA', async () => {
    const res = await httpsCall(port, cert, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
    expect(res.peerFingerprint).toBe(new X509Certificate(cert).fingerprint256);
  });

  it('serves the API end to end over TLS with HSTS (no proxy header needed)', async () => {
    const org = await httpsCall(port, cert, 'POST', '/internal/v1/organizations', {
      token: DRILL_ADMIN_TOKEN,
      body: { name: 'TLS org', plan: 'pro' },
    });
    expect(org.status).toBe(201);
    expect(org.headers['strict-transport-security']).toBe(HSTS);
    const created = await httpsCall(
      port,
      cert,
      'POST',
      `/internal/v1/organizations/${JSON.parse(org.body).id}/api-keys`,
      { token: DRILL_ADMIN_TOKEN, body: { name: 'tls', scopes: ['builds:read'] } },
    );
    expect(created.status).toBe(201);
    const key = JSON.parse(created.body).key as string;

    const res = await httpsCall(port, cert, 'GET', '/api/v1/organizations', { token: key });
    expect(res.status).toBe(200);
    expect(res.headers['strict-transport-security']).toBe(HSTS);
    expect(JSON.parse(res.body).data.map((o: { id: string }) => o.id)).toEqual([
      JSON.parse(org.body).id,
    ]);

    // Without a key it is the key that is missing (401), not HTTPS (403 https_required).
    const anonymous = await httpsCall(port, cert, 'GET', '/api/v1/organizations');
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body).error).toBe('unauthorized');
  });

  it('refuses a client that does not trust the certificate', async () => {
    await expect(
      new Promise((resolve, reject) => {
        const req = httpsRequest(
          { host: '127.0.0.1', port, path: '/healthz', servername: 'localhost', timeout: 15_000 },
          resolve,
        );
        req.on('timeout', () => req.destroy(new Error('timed out')));
        req.on('error', reject);
        req.end();
      }),
    ).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('answers no plain HTTP on the TLS port', async () => {
    await expect(plainCall(port, '/healthz')).rejects.toMatchObject({
      code: expect.stringMatching(/^(ECONNRESET|EPIPE)$/),
    });
  });
});
