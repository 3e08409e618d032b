import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main, type Io } from '../../packages/reporter/src/main.js';
import { httpTransport } from '../../packages/reporter/src/transport.js';
import { createProject, type ProjectFixture } from '../factories/catalog.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { listenOnLoopback, startApp, withKey, type TestApp } from '../support/app.js';
import { FaultProxy, type Fault } from './fault-proxy.js';

const HTTPS_HEADERS = JSON.stringify({ 'X-Forwarded-Proto': 'https' });
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

function junit(suite: string, cases: number, failing: number[] = []): string {
  const lines = Array.from({ length: cases }, (_, i) =>
    failing.includes(i)
      ? `    <testcase classname="${suite}" name="case${i}" time="0.01"><failure type="AssertionError" message="expected 200 but got ${500 + i}">at ${suite}.case${i}(Spec.java:${i})</failure></testcase>`
      : `    <testcase classname="${suite}" name="case${i}" time="0.01"/>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${suite}" tests="${cases}">\n${lines.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

function write(dir: string, file: string, content: string): string {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), content);
  return file;
}

describe('pipeline reporter (tm-report) against the service', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  let orgId: string;
  let dir: string;
  let baseEnv: Record<string, string>;

  beforeAll(async () => {
    t = await startApp();
    port = await listenOnLoopback(t);
    const tenant = await createTenant(t, [...RUN_SCOPES, 'builds:create', 'builds:read']);
    key = tenant.key;
    orgId = tenant.org.id;
    dir = mkdtempSync(path.join(tmpdir(), 'tm-report-e2e-'));
    baseEnv = {
      TM_URL: `http://127.0.0.1:${port}/api/v1`,
      TM_API_KEY: key,
      TM_EXTRA_HEADERS: HTTPS_HEADERS,
    };
  });
  afterAll(() => t.close());

  /** Runs the CLI in-process; retries wait as the service says, so faults cost real seconds. */
  async function report(
    argv: string[],
    env: Record<string, string | undefined> = {},
    retry?: Io['retry'],
    progressBar = false,
  ) {
    let out = '';
    let err = '';
    const code = await main(argv, {
      env: { ...baseEnv, ...env },
      cwd: dir,
      out: (text) => void (out += text),
      err: (text) => void (err += text),
      retry,
      progressBar,
    });
    return { code, out, err };
  }

  let calls = 0;
  const countingFetch: Io['retry'] = {
    transport: (outgoing, timeoutMs) => {
      calls++;
      return httpTransport(outgoing, timeoutMs);
    },
  };
  beforeEach(() => {
    calls = 0;
  });

  const get = (url: string, apiKey = key) => t.http.get(url).set(withKey(apiKey));
  const historyTotal = async (runId: string) =>
    (await get(`/api/v1/testruns/${runId}/results?include_history=true&limit=1`)).body.pagination
      .total;

  describe('8 shard processes of one pipeline', () => {
    // The shards run the package's bundle (dist/cli.js), built from the current sources.
    beforeAll(() => {
      execFileSync(process.execPath, ['build.mjs'], {
        cwd: 'packages/reporter',
        stdio: 'pipe',
        timeout: 120_000,
      });
    }, 130_000);

    function cli(
      args: string[],
      env: Record<string, string>,
      nodeArgs: string[] = [],
    ): Promise<{ code: number; out: string; err: string }> {
      return new Promise((resolve) => {
        execFile(
          process.execPath,
          [...nodeArgs, path.resolve('packages/reporter/dist/cli.js'), ...args],
          { cwd: dir, env: { PATH: process.env.PATH ?? '', ...baseEnv, ...env }, timeout: 120_000 },
          (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
        );
      });
    }

    it('land in one run, every result stored once, counts exact; complete completes it once', async () => {
      const project = await createProject(t, orgId);
      const github = {
        GITHUB_ACTIONS: 'true',
        GITHUB_RUN_ID: `${Date.now()}`,
        GITHUB_RUN_NUMBER: '311',
        GITHUB_SHA: SHA,
        GITHUB_REF_NAME: 'main',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'acme/web-shop',
      };
      // Each shard: two JUnit reports of 25 cases (one failing); shard 0 also a JSON file, and
      // shard 7 sends shard 0's first report again (its results count once).
      for (let shard = 0; shard < 8; shard++) {
        write(dir, `shards/${shard}/reports/a.xml`, junit(`shard${shard}.A`, 25, [3]));
        write(dir, `shards/${shard}/reports/nested/b.xml`, junit(`shard${shard}.B`, 25));
      }
      write(
        dir,
        'shards/0/reports/api.json',
        JSON.stringify({
          results: Array.from({ length: 30 }, (_, i) => ({
            automation_id: `api.case${i}`,
            status: 'passed',
            duration_ms: i,
          })),
        }),
      );
      write(
        dir,
        'shards/7/reports/copy-of-0.xml',
        readFileSync(path.join(dir, 'shards/0/reports/a.xml'), 'utf8'),
      );

      const shards = await Promise.all(
        Array.from({ length: 8 }, (_, shard) =>
          cli(
            [
              'submit',
              `shards/${shard}/reports/**/*.{xml,json}`,
              '--project',
              project.key,
              '--run-name',
              'e2e shards',
              '--json',
            ],
            github,
          ),
        ),
      );
      for (const shard of shards)
        expect({ code: shard.code, err: shard.err }).toEqual({ code: 0, err: expect.any(String) });
      const runIds = new Set(shards.map((s) => JSON.parse(s.out).run.id));
      expect(runIds.size).toBe(1);
      const [runId] = runIds;
      for (const s of shards) expect(s.out + s.err).not.toContain(key);
      // Each shard's JUnit reports went in one call (pack.ts), so shard 7's copy of shard 0's
      // report is in a body of its own: stored again as a later execution of the same slots.
      const replays = shards.flatMap((s) => JSON.parse(s.out).uploaded as { replayed: number }[]);
      expect(replays.reduce((sum, u) => sum + u.replayed, 0)).toBe(0);

      const run = (await get(`/api/v1/testruns/${runId}`).expect(200)).body;
      expect(run.counts).toMatchObject({ total: 8 * 50 + 30, failed: 8, passed: 8 * 49 + 30 });
      expect(await historyTotal(runId as string)).toBe(8 * 50 + 30 + 25);
      const runs = await get(`/api/v1/testruns?project_id=${project.id}`).expect(200);
      expect(runs.body.pagination.total).toBe(1);
      const builds = await get(`/api/v1/builds?project_id=${project.id}`).expect(200);
      expect(builds.body.data).toEqual([
        expect.objectContaining({
          commit_sha: SHA,
          branch: 'main',
          build_number: '311',
          id: run.build_id,
        }),
      ]);

      const completions = await Promise.all([
        cli(['complete', '--project', project.key, '--run-name', 'e2e shards'], github),
        cli(['complete', '--project', project.key, '--run-name', 'e2e shards'], github),
      ]);
      expect(completions.map((c) => c.code)).toEqual([0, 0]);
      expect((await get(`/api/v1/testruns/${runId}`)).body.status).toBe('completed');
      expect((await get(`/api/v1/testruns?project_id=${project.id}`)).body.pagination.total).toBe(
        1,
      );
    }, 120_000);

    it('sends and completes without loading undici, whose start costs a shard ~30 ms of CPU (issue 17)', async () => {
      const project = await createProject(t, orgId);
      write(dir, 'lean/one.xml', junit('lean.One', 3));
      // At its exit, the process says whether Node loaded its undici (fetch, Headers, Response).
      const probe = `data:text/javascript,${encodeURIComponent(
        "process.on('exit', () => process.stderr.write(`undici loaded: ${process.moduleLoadList.some((m) => m.includes('undici'))}\\n`));",
      )}`;
      const common = ['--project', project.key, '--run-name', 'lean', '--pipeline-id', 'lean-1'];
      const submit = await cli(['submit', 'lean/one.xml', ...common], {}, ['--import', probe]);
      expect({ code: submit.code, err: submit.err }).toEqual({
        code: 0,
        err: expect.stringContaining('undici loaded: false'),
      });
      const complete = await cli(['complete', ...common], {}, ['--import', probe]);
      expect(complete.err).toContain('run "lean" completed');
      expect(complete.err).toContain('undici loaded: false');
    });
  });

  describe('through a faulty network', () => {
    let proxy: FaultProxy;
    afterEach(() => proxy?.close());

    it('retries dropped connections, 503s with Retry-After, per-minute 429s and slow answers without duplicating a result', async () => {
      const project = await createProject(t, orgId);
      const counts: Record<string, number> = {};
      const faults: Record<string, Fault[]> = {
        'POST /api/v1/testruns': ['503-after'],
        'POST /api/v1/results/ingest': ['drop-after', '429', 'drop', '503-after'],
        'POST /api/v1/testruns/:id/results': ['503-after', { delayMs: 500 }],
        'GET /api/v1/projects': [{ delayMs: 300 }],
      };
      proxy = await new FaultProxy(port, (method, p) => {
        const route = `${method} ${p.replace(/[0-9a-f-]{36}/g, ':id')}`;
        const n = (counts[route] = (counts[route] ?? 0) + 1);
        return faults[route]?.[n - 1] ?? 'forward';
      }).start();
      write(dir, 'faulty/one.xml', junit('faulty.One', 40, [1, 2]));
      write(dir, 'faulty/two.xml', junit('faulty.Two', 40));
      write(
        dir,
        'faulty/three.json',
        JSON.stringify(
          Array.from({ length: 20 }, (_, i) => ({
            automation_id: `faulty.json${i}`,
            status: 'skipped',
          })),
        ),
      );

      const waits: number[] = [];
      const result = await report(
        [
          'submit',
          'faulty/*',
          '--project',
          project.key,
          '--run-name',
          'faulty',
          '--pipeline-id',
          `p-${Date.now()}`,
          '--json',
        ],
        { TM_URL: `http://127.0.0.1:${proxy.port}/api/v1` },
        { onRetry: (_what, _reason, waitMs) => void waits.push(waitMs) },
      );
      expect(result.err).not.toContain(key);
      // On failure, what the reporter said (it failed once in a full run, with exit 2).
      expect({ code: result.code, err: result.code === 0 ? '' : result.err }).toEqual({
        code: 0,
        err: '',
      });
      const runId = JSON.parse(result.out).run.id;
      const run = (await get(`/api/v1/testruns/${runId}`).expect(200)).body;
      expect(run.counts).toMatchObject({ total: 100, passed: 78, failed: 2, skipped: 20 });
      expect(await historyTotal(runId)).toBe(100);
      expect((await get(`/api/v1/testruns?project_id=${project.id}`)).body.pagination.total).toBe(
        1,
      );
      // Every planned fault was met and retried: 503 and 429 after their Retry-After of 1 s.
      expect(proxy.seen.filter((s) => s.fault !== 'forward')).toHaveLength(8);
      expect(waits.filter((w) => w === 1000).length).toBeGreaterThanOrEqual(4);
      expect(result.err).toMatch(/503; retry 1 in 1\.0 s/);
    }, 60_000);
  });

  it('fails at once, naming the reset date, when the monthly quota is used up', async () => {
    const tenant = await createTenant(t, RUN_SCOPES, { monthly_call_limit: 1 });
    const project = await createProject(t, tenant.org.id);
    await get('/api/v1/organizations', tenant.key).expect(200);
    write(dir, 'quota/one.xml', junit('quota.One', 2));
    const result = await report(
      ['submit', 'quota/one.xml', '--project', project.id, '--run-name', 'quota'],
      { TM_API_KEY: tenant.key },
      countingFetch,
    );
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /monthly API quota of 1 calls is used up .* resets at \d{4}-\d\d-\d\dT[\d:.]+Z\. Not retrying/,
    );
    expect(calls).toBe(1);
  });

  it('finds the project of --project KEY in any case (keys are unique without regard to case)', async () => {
    const tenant = await createTenant(t, RUN_SCOPES);
    await createProject(t, tenant.org.id, { key: 'Web-Shop-X' });
    const project = await createProject(t, tenant.org.id, { key: 'Web-Shop' });
    await createProject(t, tenant.org.id, { key: 'Web-Shop-2' });
    write(dir, 'key-case/one.xml', junit('keyCase.One', 2));
    const result = await report(
      ['submit', 'key-case/one.xml', '--project', 'wEB-sHOP', '--run-name', 'key case', '--json'],
      { TM_API_KEY: tenant.key },
    );
    expect({ code: result.code, err: result.code ? result.err : '' }).toEqual({ code: 0, err: '' });
    expect(JSON.parse(result.out).run).toMatchObject({
      project_id: project.id,
      counts: { total: 2 },
    });
  });

  it('names the missing scope of a 403', async () => {
    const tenant = await createTenant(t, ['testruns:create', 'testruns:read', 'projects:read']);
    const project = await createProject(t, tenant.org.id);
    write(dir, 'scope/one.xml', junit('scope.One', 2));
    const result = await report(
      [
        'submit',
        'scope/one.xml',
        '--project',
        project.key,
        '--run-name',
        'scope',
        '--pipeline-id',
        'scope',
      ],
      { TM_API_KEY: tenant.key },
    );
    expect(result.code).toBe(2);
    expect(result.err).toContain('lacks the scope results:submit');
  });

  it('refuses an invalid report with its file and line, sending nothing', async () => {
    write(dir, 'invalid/good.xml', junit('invalid.Good', 2));
    write(dir, 'invalid/bad.xml', '<testsuite name="x">\n  <testcase name="a">\n</testsuite>\n');
    const result = await report(
      ['submit', 'invalid/*.xml', '--project', 'P1', '--run-name', 'invalid'],
      {},
      countingFetch,
    );
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      'invalid/bad.xml:3:1: invalid JUnit XML report: closing tag </testsuite> does not match <testcase> opened on line 2',
    );
    expect(calls).toBe(0);
    const dry = await report(['submit', '--dry-run', 'invalid/good.xml']);
    expect(dry).toMatchObject({
      code: 0,
      out: '1 reports, 2 results: valid (dry run, nothing sent)\n',
    });
  });

  it('says clearly that the key or the address is missing, never printing the key', async () => {
    write(dir, 'config/one.xml', junit('config.One', 1));
    const args = ['submit', 'config/one.xml', '--project', 'P1', '--run-name', 'config'];
    const noKey = await report(args, { TM_API_KEY: undefined });
    expect(noKey).toMatchObject({ code: 2 });
    expect(noKey.err).toContain('TM_API_KEY is not set');
    const noUrl = await report(args, { TM_URL: undefined });
    expect(noUrl.err).toContain('TM_URL is not set');
    const badKey = await report(args, { TM_API_KEY: 'svc_live_not-a-key-0000' });
    expect(badKey.err).toContain('TM_API_KEY does not look like an API key');
    expect(badKey.err).not.toContain('svc_live_not-a-key-0000');
    const help = await report(['submit', '--help']);
    expect(help.out).toContain('Usage: tm-report submit');
  });

  describe('a wrong TM_URL', () => {
    const args = (name: string) => [
      'submit',
      `wrong-url/${name}.xml`,
      '--project',
      'P1',
      '--run-name',
      'wrong url',
      '--pipeline-id',
      `wrong-url-${name}`,
    ];
    const noWaiting: Io['retry'] = { sleep: async () => undefined };
    let other: Server | undefined;
    afterEach(() => other?.close());

    /** Another web server on this host: a web app, a proxy's page, a redirect to a login. */
    async function otherServer(answer: (res: ServerResponse) => void): Promise<string> {
      other = createServer((req, res) => {
        req.resume();
        req.on('end', () => answer(res));
      });
      await new Promise<void>((resolve) => other?.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    }

    it('works with or without /api/v1', async () => {
      const project = await createProject(t, orgId);
      write(dir, 'wrong-url/bare.xml', junit('url.Bare', 3));
      const bare = await report(
        [...args('bare').slice(0, 2), '--project', project.key, '--run-name', 'bare', '--json'],
        { TM_URL: `http://127.0.0.1:${port}/` },
      );
      expect({ code: bare.code, err: bare.code ? bare.err : '' }).toEqual({ code: 0, err: '' });
      expect(JSON.parse(bare.out).run.counts.total).toBe(3);
    });

    it('names the route that is not there when the path is wrong (an extra /api/v1, another prefix)', async () => {
      write(dir, 'wrong-url/path.xml', junit('url.Path', 1));
      for (const base of ['/api/v1/api/v1', '/tm']) {
        const result = await report(args('path'), {
          TM_URL: `http://127.0.0.1:${port}${base}`,
        });
        expect(result.code).toBe(2);
        expect(result.err).toContain(
          `GET /api/v1/projects answered 404 not_found: no such route (http://127.0.0.1:${port}${base.replace(/\/api\/v1$/, '')}/api/v1/projects); check TM_URL`,
        );
      }
    });

    it('says TM_URL is not the API when a web page answers, with 404 or 200, or a redirect', async () => {
      write(dir, 'wrong-url/page.xml', junit('url.Page', 1));
      for (const status of [404, 200]) {
        const url = await otherServer((res) => {
          res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
          res.end('<!doctype html><title>Test management</title><div id="app"></div>');
        });
        const result = await report(args('page'), { TM_URL: `${url}/api/v1` }, countingFetch);
        expect(result.code).toBe(2);
        expect(result.err).toContain(
          `tm-report: error: GET /api/v1/projects answered ${status} with an HTML page, not the service's JSON, from ${url}/api/v1/projects: TM_URL is not the service's API address: set it to the service's address, with or without /api/v1 once (e.g. https://tm.example.com/api/v1).`,
        );
        expect(calls).toBe(1);
        other?.close();
        calls = 0;
      }
      const url = await otherServer((res) => {
        res.writeHead(302, { Location: 'https://sso.example.com/login' });
        res.end();
      });
      const redirected = await report(args('page'), { TM_URL: `${url}/api/v1` });
      expect(redirected.err).toContain(
        `GET /api/v1/projects was redirected (302 to https://sso.example.com/login) from ${url}/api/v1/projects: TM_URL is not the service's API address`,
      );
    });

    it('says the service cannot be reached at a wrong port or host, after the retries', async () => {
      write(dir, 'wrong-url/port.xml', junit('url.Port', 1));
      const closed = await otherServer(() => undefined);
      await new Promise((resolve) => other?.close(resolve));
      const refused = await report(args('port'), { TM_URL: `${closed}/api/v1` }, noWaiting);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(
        `Cannot reach the service at ${closed} (TM_URL): network error (ECONNREFUSED) on all 5 attempts; check TM_URL's host and port.`,
      );
      expect(refused.err.match(/retry \d in/g)).toHaveLength(4);
      // A name that cannot exist (RFC 6761): said at once where DNS answers, else after retries.
      const unknown = await report(
        args('port'),
        { TM_URL: 'https://tm-report-no-such-host.invalid/api/v1' },
        noWaiting,
      );
      expect(unknown.code).toBe(2);
      expect(unknown.err).toMatch(
        /Cannot reach the service.*tm-report-no-such-host\.invalid.*check TM_URL/,
      );
    });
  });

  describe('--gate', () => {
    let project: ProjectFixture;
    beforeAll(async () => {
      project = await createProject(t, orgId);
    });

    it('exits 1 when the gate fails, printing new failures and writing the Markdown summary', async () => {
      write(
        dir,
        'gate/red.json',
        JSON.stringify([
          { automation_id: 'gate.login', status: 'passed' },
          {
            automation_id: 'gate.checkout',
            status: 'failed',
            message: 'expected 200 but got 500',
            failure_type: 'AssertionError',
          },
        ]),
      );
      const stepSummary = path.join(dir, 'gate/step-summary.md');
      const result = await report(
        [
          'submit',
          'gate/red.json',
          '--project',
          project.id,
          '--run-name',
          'nightly',
          '--pipeline-id',
          'gate-1',
          '--complete',
          '--gate',
          '--summary',
          'gate/summary.md',
        ],
        { GITHUB_STEP_SUMMARY: stepSummary },
      );
      expect(result.code).toBe(1);
      expect(result.out).toContain('Gate: FAILED');
      expect(result.out).toMatch(
        /New failures \(1\):\n {2}- gate\.checkout: expected 200 but got 500/,
      );
      expect(result.out).toMatch(
        /Failure groups \(1\):\n {2}- 1 × AssertionError: expected 200 but got 500/,
      );
      const summary = readFileSync(path.join(dir, 'gate/summary.md'), 'utf8');
      expect(summary).toContain('**Quality gate: ❌ failed**');
      expect(summary).toContain('`gate.checkout` — expected 200 but got 500');
      expect(readFileSync(stepSummary, 'utf8')).toBe(summary);
    });

    it('prints a test name that holds a line break and a workflow command on its one line (issue 25)', async () => {
      write(
        dir,
        'gate/injected.xml',
        `<testsuite name="ui"><testcase classname="ui" name="renders&#10;::warning title=INJECTED::from a test name"><failure message="boom&#13;&#10;::error::from a message">x</failure></testcase></testsuite>`,
      );
      const stepSummary = path.join(dir, 'gate/injected-summary.md');
      const result = await report(
        [
          'submit',
          'gate/injected.xml',
          '--project',
          project.id,
          '--run-name',
          'injected',
          '--pipeline-id',
          'gate-injected',
          '--complete',
          '--gate',
        ],
        { GITHUB_STEP_SUMMARY: stepSummary },
      );
      expect(result.code).toBe(1);
      const summary = readFileSync(stepSummary, 'utf8');
      for (const text of [result.out, result.err, summary]) {
        expect(text).not.toMatch(/^\s*::/m);
        expect(text).not.toMatch(/[\r\u001b]/);
      }
      expect(result.out).toContain(
        '  - ui.renders ::warning title=INJECTED::from a test name: boom ::error::from a message',
      );
    });

    it('lists the run’s flaky tests from the project’s flaky list, quarantined ones marked, in the log and the summary', async () => {
      const flakyProject = await createProject(t, orgId);
      // Five earlier runs of the same name: login, search and elsewhere flip; stable passes.
      for (let i = 0; i < 5; i++) {
        const earlier = await createRun(t, key, flakyProject.id, { name: 'flaky nightly' });
        const status = i % 2 === 0 ? 'passed' : 'failed';
        const results = ['flaky.login', 'flaky.search', 'flaky.elsewhere']
          .map((automation_id) => ({ automation_id, status }))
          .concat({ automation_id: 'flaky.stable', status: 'passed' });
        expect((await submitResults(t, key, earlier.id, results, true)).status).toBe(201);
      }
      const listed = await get(`/api/v1/projects/${flakyProject.id}/flaky-tests`).expect(200);
      const search = listed.body.data.find(
        (f: { automation_id: string }) => f.automation_id === 'flaky.search',
      );
      const manager = await createApiKey(t, orgId, ['quarantine:manage']);
      await t.http
        .put(`/api/v1/projects/${flakyProject.id}/quarantine/${search.test_case_id}`)
        .set(withKey(manager.key))
        .send({ reason: 'flips on the shared runners' })
        .expect(200);
      // This run: login fails (new), search passes, stable passes on a retry; elsewhere is absent.
      write(
        dir,
        'gate/flaky.json',
        JSON.stringify([
          { automation_id: 'flaky.login', status: 'failed', message: 'timeout' },
          { automation_id: 'flaky.search', status: 'passed' },
          { automation_id: 'flaky.stable', status: 'passed', retries: 1 },
        ]),
      );
      const result = await report([
        'submit',
        'gate/flaky.json',
        '--project',
        flakyProject.key,
        '--run-name',
        'flaky nightly',
        '--pipeline-id',
        'gate-flaky',
        '--complete',
        '--gate',
        '--summary',
        'gate/flaky.md',
      ]);
      expect(result.code).toBe(1);
      expect(result.out).toContain('1 passed on retry (flaky)');
      expect(result.out).toMatch(/New failures \(1\):\n {2}- flaky\.login: timeout\n/);
      const flakySection = result.out.slice(result.out.indexOf('Flaky tests'));
      expect(flakySection).toMatch(/^Flaky tests \(3\):\n(?: {2}- .*\n){3}Failure groups \(1\):/);
      expect(flakySection).toMatch(/- flaky\.login: flips \d+ % over 6 results, last failed\n/);
      expect(flakySection).toMatch(
        /- flaky\.search: flips \d+ % over 6 results, last passed \[quarantined\]\n/,
      );
      expect(flakySection).toContain(
        '- flaky.stable: flips 0 % over 6 results, 1 passed on retry, last passed\n',
      );
      expect(result.out).not.toContain('flaky.elsewhere:');
      const summary = readFileSync(path.join(dir, 'gate/flaky.md'), 'utf8');
      expect(summary).toContain('#### Flaky tests (3)');
      expect(summary).toMatch(
        /- `flaky\.search` — flips \d+ % over 6 results, last passed \(quarantined\)/,
      );
      expect(summary).toContain('Results of this run that passed on retry (flaky): 1.');
      expect(summary).not.toContain('flaky.elsewhere`');
    });

    it('exits 0 when it passes, listing what the run fixed (with a progress bar on a terminal)', async () => {
      write(
        dir,
        'gate/green.json',
        JSON.stringify([
          { automation_id: 'gate.login', status: 'passed' },
          { automation_id: 'gate.checkout', status: 'passed' },
        ]),
      );
      const result = await report(
        [
          'submit',
          'gate/green.json',
          '--project',
          project.key,
          '--run-name',
          'nightly',
          '--pipeline-id',
          'gate-2',
          '--complete',
          '--gate',
        ],
        {},
        undefined,
        true,
      );
      expect(result.code).toBe(0);
      expect(result.err).toContain('\r[####################] 1/1 reports, 2 results\n');
      expect(result.out).toContain('Gate: PASSED');
      expect(result.out).toMatch(/Fixed \(1\):\n {2}- gate\.checkout/);
    });
  });
});
