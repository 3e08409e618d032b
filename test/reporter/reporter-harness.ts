import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main, type Io } from '../../packages/reporter/src/main.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { listenOnLoopback, startApp, withKey, type TestApp } from '../support/app.js';

export const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

/** A JUnit report of `cases` tests of `suite`, those at `failing` failed. */
export function junit(suite: string, cases: number, failing: number[] = []): string {
  const lines = Array.from({ length: cases }, (_, i) =>
    failing.includes(i)
      ? `    <testcase classname="${suite}" name="case${i}" time="0.01"><failure type="AssertionError" message="expected 200 but got 500">at ${suite}.case${i}</failure></testcase>`
      : `    <testcase classname="${suite}" name="case${i}" time="0.01"/>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${suite}" tests="${cases}">\n${lines.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

export interface ReporterHarness {
  t: TestApp;
  port: number;
  key: string;
  orgId: string;
  /** The folder the reporter runs in. */
  dir: string;
  /** Writes a file under `dir`; returns its relative path. */
  write(file: string, content: string): string;
  /** Runs tm-report in-process against the service, with `env` over the harness's. */
  report(
    argv: string[],
    env?: Record<string, string | undefined>,
    retry?: Io['retry'],
  ): Promise<{ code: number; out: string; err: string }>;
  get(url: string, apiKey?: string): ReturnType<TestApp['http']['get']>;
}

/** A loopback port free at the moment. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The service on a loopback port and an organization whose key has `scopes`. `settings` are
 * the service's overrides, given the port it will listen on when they need it (`PUBLIC_URL`).
 */
export async function startReporterHarness(
  scopes = [...RUN_SCOPES, 'builds:create', 'builds:read'],
  settings?: (port: number) => Record<string, string>,
): Promise<ReporterHarness> {
  let t: TestApp;
  let port: number;
  if (settings) {
    port = await freePort();
    t = await startApp(settings(port));
    await t.app.listen(port, '127.0.0.1');
  } else {
    t = await startApp();
    port = await listenOnLoopback(t);
  }
  const tenant = await createTenant(t, scopes);
  const dir = mkdtempSync(path.join(tmpdir(), 'tm-report-e2e-'));
  const baseEnv = {
    TM_URL: `http://127.0.0.1:${port}/api/v1`,
    TM_API_KEY: tenant.key,
    TM_EXTRA_HEADERS: JSON.stringify({ 'X-Forwarded-Proto': 'https' }),
  };
  return {
    t,
    port,
    key: tenant.key,
    orgId: tenant.org.id,
    dir,
    write(file, content) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
      return file;
    },
    async report(argv, env = {}, retry) {
      let out = '';
      let err = '';
      const code = await main(argv, {
        env: { ...baseEnv, ...env },
        cwd: dir,
        out: (text) => void (out += text),
        err: (text) => void (err += text),
        retry,
      });
      return { code, out, err };
    },
    get: (url, apiKey = tenant.key) => t.http.get(url).set(withKey(apiKey)),
  };
}
