import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { freePort, spawnService, waitForOutput } from './support/process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `GET https://localhost:port/healthz` trusting only `ca`: its status. */
function healthOver(port: number, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    httpsGet({ host: 'localhost', port, path: '/healthz', ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe('the service process', () => {
  it('refuses to start with a bad setting and names it', async () => {
    const service = spawnService({ PORT: 'eighty', RATE_LIMIT_STORE: 'disk' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(/PORT must be an integer from 1 to 65535 \(got "eighty"\)/);
    expect(service.output()).toMatch(/RATE_LIMIT_STORE must be one of memory, redis/);
  });

  describe('settings files', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'tm-settings-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    /** Starts the service in `dir`; answers what it listens on and its internal API's answer. */
    async function startIn(token: string): Promise<{ listening: string; internal: number }> {
      const port = await freePort();
      const service = spawnService({ PORT: String(port) }, dir);
      try {
        await waitForOutput(service, /Listening on/);
        const listening = /Listening on (\w+):/.exec(service.output())![1];
        const res = await fetch(`${listening}://127.0.0.1:${port}/internal/v1/organizations`, {
          headers: { 'X-Forwarded-Proto': 'https', Authorization: `Bearer ${token}` },
        });
        return { listening, internal: res.status };
      } finally {
        service.child.kill('SIGKILL');
        await service.exited;
      }
    }

    it('ignores .env.example: without .env a start takes the safe defaults', async () => {
      copyFileSync(resolvePath('.env.example'), join(dir, '.env.example'));
      const example = readFileSync(join(dir, '.env.example'), 'utf8');
      const token = /^ADMIN_TOKEN=(.+)$/m.exec(example)![1];
      // Plain HTTP (no self-signed certificate) and no internal API, whatever the example says.
      expect(await startIn(token)).toEqual({ listening: 'http', internal: 404 });
    });

    it('start:local writes .env from .env.example with a token and a certificate of its own, once, and says so', async () => {
      copyFileSync(resolvePath('.env.example'), join(dir, '.env.example'));
      const script = resolvePath('scripts/local-env.mjs');
      const first = execFileSync(process.execPath, [script], { cwd: dir, encoding: 'utf8' });
      expect(first).toMatch(/created from \.env\.example/);
      const written = readFileSync(join(dir, '.env'), 'utf8');
      const token = /^ADMIN_TOKEN=([0-9a-f]{48})$/m.exec(written)?.[1];
      expect(token).toMatch(/^[0-9a-f]{48}$/);
      // Said where it is, not printed (a log is no place for it).
      expect(first).not.toContain(token);
      expect(first).toMatch(/ADMIN_TOKEN in \.env/);
      // HTTPS with a certificate made once, in files a client can be told to trust.
      expect(written).toMatch(/^TLS_SELF_SIGNED=false$/m);
      const cert = /^TLS_CERT_FILE=(.+)$/m.exec(written)?.[1] as string;
      const key = /^TLS_KEY_FILE=(.+)$/m.exec(written)?.[1] as string;
      expect(cert).toBe(join(dir, '.local/tls/localhost.crt'));
      const certificate = new X509Certificate(readFileSync(cert));
      expect(certificate.subjectAltName).toMatch(/DNS:localhost.*IP Address:127\.0\.0\.1/);
      expect(certificate.checkPrivateKey(createPrivateKey(readFileSync(key)))).toBe(true);
      expect(statSync(key).mode & 0o077).toBe(0);
      expect(first).toContain(cert);
      // The service serves that certificate, and a client told to trust it (as the reporter is
      // with NODE_EXTRA_CA_CERTS) verifies it for localhost.
      const port = await freePort();
      const service = spawnService({ PORT: String(port) }, dir);
      try {
        await waitForOutput(service, /Listening on https:/);
        expect(await healthOver(port, readFileSync(cert))).toBe(200);
      } finally {
        service.child.kill('SIGKILL');
        await service.exited;
      }
      const second = execFileSync(process.execPath, [script], { cwd: dir, encoding: 'utf8' });
      expect(second).toMatch(/using the settings in \.env/);
      expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(written);
    });
  });

  it('logs a Redis outage once when it starts and once when it ends, not at every retry', async () => {
    const port = await freePort();
    const redisPort = await freePort();
    const service = spawnService({
      PORT: String(port),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    });
    let redis: ChildProcess | null = null;
    try {
      await waitForOutput(service, /Listening on/);
      // ioredis retries every 2 s at most: several retries pass in 5 s.
      await sleep(5000);
      const down = (service.output().match(/unreachable/g) ?? []).length;
      // One line for the shared client, one for the queue's connections.
      expect(down).toBeGreaterThanOrEqual(1);
      expect(down).toBeLessThanOrEqual(2);
      expect(service.output()).not.toMatch(/Unhandled error event/);
      redis = spawn(
        'redis-server',
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      await waitForOutput(service, /reachable again/, 15_000);
      expect((service.output().match(/unreachable/g) ?? []).length).toBe(down);
    } finally {
      service.child.kill('SIGKILL');
      redis?.kill('SIGKILL');
      await service.exited;
    }
  }, 30_000);

  it('logs JSON lines with the request id and never the Authorization header', async () => {
    const port = await freePort();
    const service = spawnService({ PORT: String(port) });
    await waitForOutput(service, /Listening on/);
    const secret = `svc_live_${'5e'.repeat(32)}`;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/organizations`, {
      headers: {
        'X-Forwarded-Proto': 'https',
        Authorization: `Bearer ${secret}`,
        'X-Request-Id': 'log-probe-1',
      },
    });
    expect(res.status).toBe(401);
    await waitForOutput(service, /log-probe-1/);
    service.child.kill('SIGTERM');
    await service.exited;
    const lines = service
      .output()
      .split('\n')
      .filter((line) => line.includes('log-probe-1'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(service.output()).not.toContain(secret);
    expect(service.output()).not.toMatch(/authorization/i);
  });

  // A signed link is a bearer secret for its minutes (CONTRACT §15): its signature, and the
  // trace viewer's `trace` (a whole signed link), never reach the access log.
  it('logs a signed link without its signature, and the trace viewer without its link', async () => {
    const port = await freePort();
    const service = spawnService({ PORT: String(port) });
    try {
      await waitForOutput(service, /Listening on/);
      const signature = 'f00d'.repeat(16);
      const get = (path: string, id: string) =>
        fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { 'X-Forwarded-Proto': 'https', 'X-Request-Id': id },
        });
      const link = `/api/v1/attachments/0193a5b2-0000-7000-8000-000000000000/download?expires=1790000000&signature=${signature}`;
      await get(`/console/trace/index.html?trace=${encodeURIComponent(link)}`, 'log-probe-trace');
      expect((await get(link, 'log-probe-link')).status).toBe(401);
      await waitForOutput(service, /log-probe-link/);
      const line = service
        .output()
        .split('\n')
        .find((l) => l.includes('log-probe-link') && l.includes('"url"'));
      expect(line).toContain('expires=1790000000&signature=[redacted]');
      expect(service.output()).not.toContain(signature);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it('drains an in-flight request on SIGTERM, refuses new connections, then exits 0', async () => {
    const port = await freePort();
    const service = spawnService({ PORT: String(port) });
    await waitForOutput(service, /Listening on http:\/\/0\.0\.0\.0:\d+/);

    // A request whose body is still arriving when the signal comes.
    const socket = connect(port, '127.0.0.1');
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const body = '{"name":"late build"}';
    socket.write(
      'POST /api/v1/drain-probe HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await sleep(300);

    service.child.kill('SIGTERM');
    await waitForOutput(service, /Received SIGTERM/);
    // The log line is written as the listener starts closing; the socket is gone by the end of
    // that event-loop turn, which a loaded machine may stretch: probe a few times.
    const refusesConnections = () =>
      new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1');
        probe.on('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.on('error', () => resolve(true));
      });
    let refused = false;
    for (let probe = 0; probe < 20 && !refused; probe++) {
      refused = await refusesConnections();
      if (!refused) await sleep(50);
    }
    expect(refused).toBe(true);
    expect(service.child.exitCode).toBeNull();

    socket.write(body.slice(5));
    await closed;
    expect(response).toMatch(/^HTTP\/1\.1 404 /);
    expect(response).toMatch(/"error":"not_found"/);
    expect(await service.exited).toBe(0);
    expect(service.output()).toMatch(/Received SIGTERM/);
  });
});
