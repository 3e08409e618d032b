import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main, type Io } from '../../packages/reporter/src/main.js';
import { HostileServer, json, type Asked } from './hostile-server.js';

const KEY = `svc_live_${'ab12'.repeat(8)}`;
const PROXY_SECRET = 'Basic dXNlcjpodW50ZXIy';
const RUN_ID = '01a20b3d-0000-7000-8000-000000000001';
const CASE_ID = '01a20b3d-0000-7000-8000-000000000002';

/**
 * The issue's JUnit name (an `&#10;` the service decodes to a line break, then a workflow
 * command), with a terminal escape, C1 controls, a Unicode line separator, GitHub's and Azure's
 * other command forms, HTML and Markdown.
 */
const EVIL =
  'renders\n::warning title=INJECTED::pwned\r\u001b[31mred\u009b2J\u0085 \u2028##[error]x ##vso[task.setvariable variable=a]1 <img src=x onerror=alert(1)> [click](https://evil.example) **bold**';

/** What must never reach a CI log or the step summary. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
const COMMAND_LINE = /^\s*(::|##\[)/m;

let server: HostileServer | undefined;
afterEach(() => server?.close());

async function serve(answer: (asked: Asked, res: ServerResponse) => void) {
  server = await new HostileServer(answer).start();
  return server;
}

const dir = mkdtempSync(path.join(tmpdir(), 'tm-report-hostile-'));
writeFileSync(path.join(dir, 'one.xml'), '<testsuite><testcase name="a"/></testsuite>');

async function report(argv: string[], env: Record<string, string> = {}, retry?: Io['retry']) {
  let out = '';
  let err = '';
  const code = await main(argv, {
    env: { TM_URL: server?.url, TM_API_KEY: KEY, ...env },
    cwd: dir,
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    retry: { sleep: async () => undefined, ...retry },
  });
  return { code, out, err };
}

function run(name: string) {
  return {
    id: RUN_ID,
    project_id: CASE_ID,
    name,
    build_id: null,
    release_id: null,
    status: 'completed',
    source: 'api',
    counts: {
      total: 3,
      passed: 1,
      failed: 2,
      blocked: 0,
      skipped: 0,
      retest: 0,
      untested: 0,
      flaky: 0,
    },
    submitted_at: null,
    completed_at: null,
    created_at: '2026-11-26T00:00:00.000Z',
    updated_at: '2026-11-26T00:00:00.000Z',
  };
}

/** A service whose every text is EVIL: the run's name, a rule, a test's name and message. */
function evilService(asked: Asked, res: ServerResponse) {
  const item = { test_case_id: CASE_ID, automation_id: EVIL, title: EVIL, status: 'failed' };
  const page = (data: unknown[]) => ({
    data,
    pagination: { total: data.length, limit: 100, offset: 0, has_more: false },
  });
  const answers: Record<string, unknown> = {
    [`/api/v1/testruns/${RUN_ID}`]: run(EVIL),
    [`/api/v1/testruns/${RUN_ID}/gate`]: {
      test_run_id: RUN_ID,
      passed: false,
      rules: [{ name: 'no_new_failures', passed: false, detail: EVIL }],
    },
    [`/api/v1/testruns/${RUN_ID}/comparison`]: {
      test_run_id: RUN_ID,
      baseline_run_id: EVIL,
      summary: {
        new_failures: 1,
        still_failing: 0,
        fixed: 1,
        new_tests: 0,
        missing_tests: 0,
        flaky: 0,
      },
      new_failures: [{ ...item, message: EVIL }],
      still_failing: [],
      fixed: [item],
    },
    [`/api/v1/testruns/${RUN_ID}/failures`]: page([
      { signature: 's', failure_type: EVIL, message: EVIL, count: 2, test_case_ids: [CASE_ID] },
    ]),
    [`/api/v1/projects/${CASE_ID}/flaky-tests`]: page([
      {
        ...item,
        executions: 10,
        flips: 5,
        flip_rate: 0.5,
        retried_passes: 0,
        last_status: EVIL,
        quarantined: false,
      },
    ]),
    [`/api/v1/testruns/${RUN_ID}/results`]: page([{ test_case_id: CASE_ID }]),
  };
  json(res, 200, answers[asked.path]);
}

describe('tm-report against a hostile server', () => {
  it('prints and writes a report’s or the service’s text without controls, line breaks, workflow commands or live Markdown', async () => {
    await serve(evilService);
    const summary = path.join(dir, 'step-summary.md');
    writeFileSync(summary, '');
    const result = await report(
      ['complete', '--run-id', RUN_ID, '--gate', '--details', '--summary', 'summary.md'],
      { GITHUB_STEP_SUMMARY: summary },
    );
    expect(result.code).toBe(1);
    const written = [
      readFileSync(summary, 'utf8'),
      readFileSync(path.join(dir, 'summary.md'), 'utf8'),
    ];
    for (const text of [result.out, result.err, ...written]) {
      expect(text).not.toMatch(CONTROL);
      expect(text).not.toMatch(COMMAND_LINE);
      expect(text).not.toMatch(/##(vso)?\[/i);
    }
    // Still shown, each on its own line: a test's name is one line of the log.
    expect(result.out).toContain('  - renders ::warning title=INJECTED::pwned [31mred2J  ');
    expect(result.out).toContain('Run "renders ::warning title=INJECTED::pwned');
    for (const markdown of written) {
      // Outside code spans (shown as written), every punctuation mark is escaped.
      const rendered = markdown.replace(/`[^`\n]*`/g, '`…`');
      expect(rendered).not.toMatch(/(?<!\\)<img/);
      expect(rendered).not.toMatch(/(?<!\\)\]\(https/);
      expect(rendered).not.toMatch(/(?<!\\)\*(?<!\\)\*bold/);
      expect(rendered).toContain('\\<img src\\=x onerror\\=alert\\(1\\)\\>');
    }
  });

  it('never prints TM_API_KEY or a proxy’s credentials, even when the service echoes them', async () => {
    const echoed = (asked: Asked) =>
      `bad request: Authorization: ${asked.headers.authorization}; Proxy-Authorization: ${asked.headers['proxy-authorization']}; svc_live_0123456789abcdef`;
    await serve((asked, res) =>
      json(res, 400, {
        error: 'invalid_request',
        message: echoed(asked),
        details: { field: echoed(asked) },
      }),
    );
    const result = await report(['complete', '--run-id', RUN_ID, '--json'], {
      TM_EXTRA_HEADERS: JSON.stringify({ 'Proxy-Authorization': PROXY_SECRET }),
    });
    expect(result.code).toBe(2);
    expect(server?.asked[0].headers.authorization).toBe(`Bearer ${KEY}`);
    for (const text of [result.out, result.err]) {
      expect(text).toContain('bad request: Authorization: Bearer [redacted]');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(KEY.slice('svc_live_'.length));
      expect(text).not.toContain('dXNlcjpodW50ZXIy');
      expect(text).not.toContain('svc_live_0123');
    }
  });

  it('stops reading an endless answer at 32 MiB with a clear error, once, without holding it', async () => {
    let written = 0;
    // Finite (64 MiB), so that a reporter without the cap fails this test instead of the machine.
    await serve((_asked, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const more = () => {
        while (written < 64 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const result = await report(['complete', '--run-id', RUN_ID]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      `tm-report: error: GET /api/v1/testruns/${RUN_ID}: the answer is larger than 32 MiB (still arriving)`,
    );
    expect(server?.asked).toHaveLength(1);
    expect(written).toBeLessThan(48 * 1024 * 1024);
  });

  it('refuses an answer that says it is larger than 32 MiB without reading it', async () => {
    await serve((_asked, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 1e12 });
      res.write('{');
    });
    const result = await report(['complete', '--run-id', RUN_ID]);
    expect(result.err).toContain('the answer is larger than 32 MiB (1000000000000 bytes said)');
  });

  it('stops paging after 100 pages of a list that says has_more for ever, and at a page that is empty or not a page', async () => {
    const other = { id: CASE_ID, key: 'OTHER', name: 'Other', description: null };
    let pages = 0;
    await serve((_asked, res) => {
      pages++;
      // Ends after 1,000 pages, so that a reporter without the cap fails instead of looping.
      const has_more = pages < 1000;
      json(res, 200, {
        data: [other],
        pagination: { total: 1e9, limit: 100, offset: 0, has_more },
      });
    });
    const argv = ['submit', 'one.xml', '--project', 'WEB', '--run-name', 'e2e'];
    const endless = await report(argv);
    expect(endless.err).toContain(
      'tm-report: error: GET /api/v1/projects still says more items follow after 100 pages (10000 items); stopped asking',
    );
    expect(server?.asked).toHaveLength(100);
    await server?.close();

    await serve((_asked, res) =>
      json(res, 200, {
        data: [],
        pagination: { total: 1e9, limit: 100, offset: 0, has_more: true },
      }),
    );
    expect((await report(argv)).err).toContain(
      'GET /api/v1/projects says more items follow but sent none on page 1; stopped asking',
    );
    expect(server?.asked).toHaveLength(1);
    await server?.close();

    await serve((_asked, res) => json(res, 200, {}));
    const notAPage = await report(argv);
    expect(notAPage.err).toContain(
      "GET /api/v1/projects answered without a page's data and pagination",
    );
    expect(notAPage.err).not.toContain('unexpected error');
  });

  it('says a successful answer is not valid JSON instead of printing a stack trace', async () => {
    await serve((_asked, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`{"id": "${RUN_ID}", "name": "\u001b[2J`);
    });
    const result = await report(['complete', '--run-id', RUN_ID]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /^tm-report: error: GET \/api\/v1\/testruns\/\{id\} answered with a body that is not valid JSON \(.+\): check that TM_URL is the service's address/,
    );
    expect(result.err).not.toMatch(/unexpected error|\n\s+at /);
    expect(result.err.trim().split('\n')).toHaveLength(1);
  });

  it('refuses plain http to another host than this machine, sending nothing', async () => {
    let calls = 0;
    // Counts what would be sent, and sends nothing (no traffic leaves this machine).
    const counting: Io['retry'] = {
      transport: async () => {
        calls++;
        throw Object.assign(new Error('not sent'), { code: 'ENOTFOUND' });
      },
    };
    const result = await report(
      ['complete', '--run-id', RUN_ID],
      { TM_URL: 'http://tm.example.com/api/v1' },
      counting,
    );
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      'TM_URL is a plain http:// address of tm.example.com: TM_API_KEY would cross the network unencrypted.',
    );
    expect(calls).toBe(0);
  });
});
