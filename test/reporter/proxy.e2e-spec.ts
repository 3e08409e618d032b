import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { generate } from 'selfsigned';
import type { Io } from '../../packages/reporter/src/main.js';
import { createProject } from '../factories/catalog.js';
import { listenOnLoopback, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import { ConnectProxy } from './connect-proxy.js';
import { junit, startReporterHarness, type ReporterHarness } from './reporter-harness.js';

const noWaiting: Io['retry'] = { sleep: async () => undefined };

/** A self-signed certificate for localhost and 127.0.0.1, as a company's own CA would give. */
async function localhostCertificate(
  dir: string,
): Promise<{ pem: string; privateKey: string; cert: string; key: string }> {
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
  writeFileSync(path.join(dir, 'cert.pem'), pems.cert);
  writeFileSync(path.join(dir, 'key.pem'), pems.private);
  return {
    pem: pems.cert,
    privateKey: pems.private,
    cert: path.join(dir, 'cert.pem'),
    key: path.join(dir, 'key.pem'),
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('tm-report through a proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)', () => {
  let h: ReporterHarness;
  /** The service again, over TLS with a certificate this process is made to trust. */
  let secure: TestApp;
  let secureUrl: string;
  const defaultCas = tls.getCACertificates('default');
  let proxy: ConnectProxy;
  let certificate: { cert: string; key: string };

  beforeAll(async () => {
    h = await startReporterHarness();
    const files = await localhostCertificate(mkdtempSync(path.join(tmpdir(), 'tm-proxy-tls-')));
    // What NODE_EXTRA_CA_CERTS does for the CLI, for the reporter run in this process.
    tls.setDefaultCACertificates([...defaultCas, files.pem]);
    certificate = { cert: files.pem, key: files.privateKey };
    secure = await startApp({ TLS_CERT_FILE: files.cert, TLS_KEY_FILE: files.key });
    secureUrl = `https://localhost:${await listenOnLoopback(secure)}/api/v1`;
  });
  afterAll(async () => {
    tls.setDefaultCACertificates(defaultCas);
    await secure.close();
    await h.t.close();
  });
  afterEach(() => proxy?.close());

  it('sends https:// calls through a CONNECT tunnel with the proxy credentials, kept open across calls, and never prints them', async () => {
    proxy = await new ConnectProxy({ credentials: 'ci-bot:s3cret-proxy-pass' }).start();
    const project = await createProject(h.t, h.orgId);
    const callsMade = async () =>
      (await h.t.http.get(`/internal/v1/organizations/${h.orgId}`).set(OPERATOR).expect(200)).body
        .calls_this_period as number;
    const callsBefore = await callsMade();
    for (const suite of ['a', 'b', 'c'])
      h.write(`tunnel/${suite}.xml`, junit(`tunnel.${suite}`, 2, [1]));
    const done = await h.report(
      ['submit', 'tunnel/*.xml', '--project', project.key, '--run-name', 'tunnel', '--complete'],
      {
        TM_URL: secureUrl,
        TM_EXTRA_HEADERS: undefined,
        HTTPS_PROXY: `http://ci-bot:s3cret-proxy-pass@${proxy.name}`,
      },
    );
    expect({ code: done.code, err: done.code ? done.err : '' }).toEqual({ code: 0, err: '' });
    expect(done.out).toContain('6 results, 3 passed, 3 failed');
    const target = new URL(secureUrl).host;
    expect(proxy.calls.length).toBeGreaterThan(0);
    expect(proxy.calls.every((c) => c.method === 'CONNECT' && c.target === target)).toBe(true);
    expect(new Set(proxy.calls.map((c) => c.authorization))).toEqual(
      new Set([`Basic ${Buffer.from('ci-bot:s3cret-proxy-pass').toString('base64')}`]),
    );
    const runs = await secure.http
      .get(`/api/v1/testruns?project_id=${project.id}`)
      .set(withKey(h.key));
    expect(runs.body.data[0].counts).toMatchObject({ total: 6, failed: 3 });
    // Keep-alive through the tunnels: one per concurrent upload at most, each serving calls.
    const calls = (await callsMade()) - callsBefore;
    expect(proxy.connections).toBeLessThanOrEqual(4);
    expect(calls).toBeGreaterThan(proxy.connections);
    expect(done.out + done.err).not.toContain('s3cret-proxy-pass');
  });

  it('speaks TLS to an https:// proxy, and TLS with the service inside its tunnel', async () => {
    proxy = await new ConnectProxy({ tls: certificate }).start();
    const project = await createProject(h.t, h.orgId);
    h.write('tls-proxy/a.xml', junit('tls.proxy', 2));
    const done = await h.report(
      ['submit', 'tls-proxy/a.xml', '--project', project.key, '--run-name', 'tls proxy'],
      {
        TM_URL: secureUrl,
        TM_EXTRA_HEADERS: undefined,
        HTTPS_PROXY: `https://localhost:${proxy.port}`,
      },
    );
    expect({ code: done.code, err: done.code ? done.err : '' }).toEqual({ code: 0, err: '' });
    expect(proxy.calls.map((c) => c.method)).toContain('CONNECT');
  });

  it('goes directly to hosts NO_PROXY names (a domain, host:port, an address), through the proxy otherwise', async () => {
    proxy = await new ConnectProxy().start();
    const target = new URL(secureUrl);
    const project = await createProject(h.t, h.orgId);
    h.write('direct/a.xml', junit('direct.a', 1));
    const submit = (noProxy: string) =>
      h.report(
        ['submit', 'direct/a.xml', '--project', project.key, '--run-name', `direct ${noProxy}`],
        {
          TM_URL: secureUrl,
          TM_EXTRA_HEADERS: undefined,
          https_proxy: proxy.name,
          no_proxy: noProxy,
        },
      );
    for (const noProxy of ['example.com, .localhost', `localhost:${target.port}`, '*']) {
      const direct = await submit(noProxy);
      expect({ noProxy, code: direct.code, err: direct.code ? direct.err : '' }).toEqual({
        noProxy,
        code: 0,
        err: '',
      });
    }
    expect(proxy.calls).toEqual([]);
    // Another port of localhost, and an address that is not the one called: through the proxy.
    const proxied = await submit(`localhost:1,127.0.0.0/8`);
    expect(proxied.code).toBe(0);
    expect(proxy.calls.length).toBeGreaterThan(0);
  });

  it('sends http:// calls to HTTP_PROXY in absolute form (HTTPS_PROXY is for https:// only)', async () => {
    proxy = await new ConnectProxy({ credentials: 'bot:pass-word-1' }).start();
    const project = await createProject(h.t, h.orgId);
    h.write('plain/a.xml', junit('plain.a', 2));
    const done = await h.report(
      ['submit', 'plain/a.xml', '--project', project.key, '--run-name', 'plain'],
      { HTTP_PROXY: `http://bot:pass-word-1@${proxy.name}`, HTTPS_PROXY: 'http://127.0.0.1:1' },
    );
    expect({ code: done.code, err: done.code ? done.err : '' }).toEqual({ code: 0, err: '' });
    expect(proxy.calls.length).toBeGreaterThan(0);
    for (const call of proxy.calls) {
      expect(call.target.startsWith(`http://127.0.0.1:${h.port}/api/v1/`)).toBe(true);
      expect(call.method).not.toBe('CONNECT');
      expect(call.authorization).toBe(`Basic ${Buffer.from('bot:pass-word-1').toString('base64')}`);
    }
  });

  it('says the proxy wants credentials (407), refused them, or refuses the service (403), naming the proxy and not its password, without retrying', async () => {
    proxy = await new ConnectProxy({ credentials: 'ci-bot:right-password' }).start();
    const run = ['complete', '--project', 'NOPE', '--run-name', 'x'];
    const env = (proxyUrl: string) => ({
      TM_URL: secureUrl,
      TM_EXTRA_HEADERS: undefined,
      HTTPS_PROXY: proxyUrl,
    });
    const none = await h.report(run, env(`http://${proxy.name}`), noWaiting);
    expect(none.code).toBe(2);
    expect(none.err).toContain(
      `The proxy ${proxy.name} (HTTPS_PROXY) asks for credentials (407 Proxy Authentication Required)`,
    );
    const wrong = await h.report(
      run,
      env(`http://ci-bot:wrong-password-9@${proxy.name}`),
      noWaiting,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain(
      `The proxy ${proxy.name} (HTTPS_PROXY) refused its user and password (407 Proxy Authentication Required)`,
    );
    expect(wrong.err).not.toContain('wrong-password-9');
    expect(proxy.calls).toHaveLength(2);
    await proxy.close();

    proxy = await new ConnectProxy({ refuse: true }).start();
    const refused = await h.report(run, env(proxy.name), noWaiting);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `The proxy ${proxy.name} (HTTPS_PROXY) does not allow connections to ${new URL(secureUrl).host} (403 Forbidden)`,
    );
    expect(proxy.calls).toHaveLength(1);
  });

  it('names the proxy that does not take connections, and a proxy address it cannot read, without echoing it', async () => {
    const port = await closedPort();
    const env = { TM_URL: secureUrl, TM_EXTRA_HEADERS: undefined };
    const run = ['complete', '--project', 'NOPE', '--run-name', 'x'];
    const refused = await h.report(
      run,
      { ...env, https_proxy: `http://u:long-secret-1@127.0.0.1:${port}` },
      noWaiting,
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `the connection to the proxy 127.0.0.1:${port} (https_proxy) failed: ECONNREFUSED`,
    );
    expect(refused.err).not.toContain('long-secret-1');
    const socks = await h.report(run, {
      ...env,
      HTTPS_PROXY: 'socks5://u:long-secret-2@proxy:1080',
    });
    expect(socks.err).toContain(
      'HTTPS_PROXY names a socks5 proxy: tm-report speaks to http:// and https:// proxies only.',
    );
    expect(socks.err).not.toContain('long-secret-2');
  });
});
