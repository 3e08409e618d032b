import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Io } from '../../packages/reporter/src/main.js';
import { httpTransport } from '../../packages/reporter/src/transport.js';
import { createProject, type ProjectFixture } from '../factories/catalog.js';
import { toLink } from '../attachments/attachment-fixtures.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';
import { startReporterHarness, type ReporterHarness } from './reporter-harness.js';

/**
 * tm-report attaching the evidence a real Playwright run wrote (CONTRACT §15): the run made by
 * test/fixtures/runners/make-fixtures.sh (playwright_evidence: a screenshot on failure, the
 * video and trace of the first retry), its JSON report's `attachments` and its JUnit report's
 * `[[ATTACHMENT|…]]` lines, sent to the real service with the filesystem store and with an
 * S3-compatible server; the bytes read back through the service's 302 are the files.
 */

const FIXTURE = 'test/fixtures/runners/playwright-evidence';
/** Where the run wrote it: the JSON report names its files by absolute path under it. */
const WRITTEN_IN = '/tmp/tm-fixture-suites/playwright-evidence/';
const RUN_SCOPES_WITH_BUILDS = [...RUN_SCOPES, 'builds:create', 'builds:read'];

/** The attachments the JSON report names, by test title: the files and the names expected. */
const COUPON = 'checkout.spec.js.Checkout › applies a coupon';
const RECOVERS = 'checkout.spec.js.Checkout › recovers on retry';
const EXPECTED: Record<string, [string, string][]> = {
  [COUPON]: [
    ['test-failed-1.png', 'checkout-Checkout-applies-a-coupon-chromium/test-failed-1.png'],
    ['error-context.md', 'checkout-Checkout-applies-a-coupon-chromium/error-context.md'],
    [
      'retry1-test-failed-1.png',
      'checkout-Checkout-applies-a-coupon-chromium-retry1/test-failed-1.png',
    ],
    ['retry1-video.webm', 'checkout-Checkout-applies-a-coupon-chromium-retry1/video.webm'],
    [
      'retry1-error-context.md',
      'checkout-Checkout-applies-a-coupon-chromium-retry1/error-context.md',
    ],
    ['retry1-trace.zip', 'checkout-Checkout-applies-a-coupon-chromium-retry1/trace.zip'],
  ],
  [RECOVERS]: [
    ['test-failed-1.png', 'checkout-Checkout-recovers-on-retry-chromium/test-failed-1.png'],
    ['error-context.md', 'checkout-Checkout-recovers-on-retry-chromium/error-context.md'],
    ['retry1-video.webm', 'checkout-Checkout-recovers-on-retry-chromium-retry1/video.webm'],
    ['retry1-trace.zip', 'checkout-Checkout-recovers-on-retry-chromium-retry1/trace.zip'],
  ],
};
/** What joins two submits outside CI in one run. */
const SAME_RUN = ['--pipeline-id', 'attachments-e2e'];
const NAMED = Object.values(EXPECTED).flat().length;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** Distinct contents: a failed attempt's screenshot and its retry's may be the same bytes. */
const DISTINCT = new Set(
  Object.values(EXPECTED)
    .flat()
    .map(([, file]) => sha256(readFileSync(path.join(FIXTURE, 'test-results', file)))),
).size;

interface Answer {
  run: { id: string };
  attachments?: {
    named: number;
    stored: number;
    uploaded: number;
    skipped: { name: string; reason: string }[];
    calls: number;
  };
}

/** The fixture run copied under `dir`, its report's absolute paths moved with it. */
function copyRun(dir: string, name: string): string {
  const to = path.join(dir, name);
  cpSync(FIXTURE, to, { recursive: true });
  const report = path.join(to, 'reports/playwright-evidence.json');
  writeFileSync(report, readFileSync(report, 'utf8').replaceAll(WRITTEN_IN, `${to}/`));
  return name;
}

/** Counts the calls the reporter makes, by method and path. */
function counter() {
  const calls: string[] = [];
  const retry: Io['retry'] = {
    transport: (outgoing, timeoutMs) => {
      calls.push(`${outgoing.method} ${outgoing.url.pathname}`);
      return httpTransport(outgoing, timeoutMs);
    },
  };
  const count = (pattern: RegExp) => calls.filter((c) => pattern.test(c)).length;
  return {
    retry,
    calls,
    creates: () => count(/^POST \/api\/v1\/testruns\/[^/]+\/attachments$/),
    completes: () => count(/^POST \/api\/v1\/testruns\/[^/]+\/attachments\/complete$/),
    puts: () => count(/^PUT /),
    reset: () => void calls.splice(0),
  };
}

/** The run's results by their case's automation id, with their attachments. */
async function resultsOf(h: ReporterHarness, runId: string) {
  const res = await h.get(`/api/v1/testruns/${runId}/results?limit=100`);
  expect(res.status).toBe(200);
  const run = await h.get(`/api/v1/testruns/${runId}`);
  const cases = await h.get(`/api/v1/projects/${run.body.project_id}/testcases?limit=100`);
  expect(cases.status).toBe(200);
  const automationIds = new Map<string, string>(
    cases.body.data.map((c: { id: string; automation_id: string }) => [c.id, c.automation_id]),
  );
  const byId = new Map<
    string,
    {
      id: string;
      configuration: string | null;
      attachments: { id: string; name: string; content_type: string; size: number }[];
    }
  >();
  for (const result of res.body.data)
    byId.set(automationIds.get(result.test_case_id) ?? result.test_case_id, result);
  return byId;
}

async function submit(h: ReporterHarness, args: string[], retry?: Io['retry'], env = {}) {
  const { code, out, err } = await h.report(['submit', ...args, '--json'], env, retry);
  if (code !== 0) throw new Error(`tm-report exited ${code}: ${err}`);
  return { answer: JSON.parse(out) as Answer, err };
}

/** Each of a result's attachments as the service serves it, following its 302. */
type Fetch = (location: string) => Promise<{ bytes: Buffer; type: string | undefined }>;

async function expectRunAttached(h: ReporterHarness, runId: string, dir: string, read: Fetch) {
  const results = await resultsOf(h, runId);
  for (const [automationId, expected] of Object.entries(EXPECTED)) {
    const result = results.get(automationId);
    expect(result?.configuration).toBe('chromium');
    expect(result?.attachments.map((a) => a.name)).toEqual(expected.map(([name]) => name));
    for (const [i, attachment] of (result?.attachments ?? []).entries()) {
      const file = readFileSync(path.join(dir, 'test-results', expected[i][1]));
      expect(attachment.size).toBe(file.length);
      const redirect = await h.get(`/api/v1/attachments/${attachment.id}/content`);
      expect(redirect.status).toBe(302);
      const served = await read(redirect.headers.location);
      expect(served.type).toBe(attachment.content_type);
      expect(sha256(served.bytes)).toBe(sha256(file));
    }
  }
  expect(results.get('checkout.spec.js.Checkout › shows the total')?.attachments).toEqual([]);
  const types = [...results.values()].flatMap((r) => r.attachments.map((a) => a.content_type));
  expect(new Set(types)).toEqual(
    new Set(['image/png', 'text/markdown', 'video/webm', 'application/zip']),
  );
}

/** An attachment's bytes from the service's signed link (a 302 target). */
function readThroughService(h: ReporterHarness, location: string) {
  return new Promise<{ bytes: Buffer; type: string | undefined }>((resolve, reject) => {
    toLink(h.t, 'get', location)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .then((res) => {
        expect(res.status).toBe(200);
        resolve({ bytes: res.body as Buffer, type: res.headers['content-type'] });
      }, reject);
  });
}

describe('tm-report attaches the evidence of a real Playwright run (filesystem store)', () => {
  let h: ReporterHarness;
  let project: ProjectFixture;
  let store: string;
  const count = counter();
  const readFromService = (location: string) => readThroughService(h, location);

  beforeAll(async () => {
    store = mkdtempSync(path.join(tmpdir(), 'tm-report-attachments-'));
    h = await startReporterHarness(RUN_SCOPES_WITH_BUILDS, (port) => ({
      ATTACHMENT_DIR: store,
      // Below the reporter's own 256 MiB: a larger file is refused by the service (413).
      ATTACHMENT_MAX_BYTES: String(1024 * 1024),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }));
    project = await createProject(h.t, h.orgId);
    copyRun(h.dir, 'pw');
  });
  afterAll(async () => {
    await h.t.close();
    rmSync(store, { recursive: true, force: true });
  });
  beforeEach(() => count.reset());

  it("attaches the JSON report's screenshots, videos and traces to their results, in one create and one complete call", async () => {
    const { answer } = await submit(
      h,
      [
        'pw/reports/playwright-evidence.json',
        '--project',
        project.key,
        '--run-name',
        'fs',
        ...SAME_RUN,
      ],
      count.retry,
    );
    expect(answer.attachments).toMatchObject({
      named: NAMED,
      stored: NAMED,
      uploaded: DISTINCT,
      skipped: [],
      calls: 2,
    });
    expect([count.creates(), count.completes(), count.puts()]).toEqual([1, 1, DISTINCT]);
    await expectRunAttached(h, answer.run.id, path.join(h.dir, 'pw'), readFromService);

    // The same submit again: its create call is answered with its replay (nothing attached
    // twice), and nothing is uploaded.
    count.reset();
    const again = await submit(
      h,
      [
        'pw/reports/playwright-evidence.json',
        '--project',
        project.key,
        '--run-name',
        'fs',
        ...SAME_RUN,
      ],
      count.retry,
    );
    expect(again.answer.run.id).toBe(answer.run.id);
    expect(again.answer.attachments).toMatchObject({ stored: NAMED, uploaded: 0 });
    expect(count.puts()).toBe(0);
    const results = await resultsOf(h, answer.run.id);
    expect(results.get(COUPON)?.attachments).toHaveLength(EXPECTED[COUPON].length);
  });

  it('uploads no content the organization stores already (a second run of the same files)', async () => {
    await submit(h, [
      'pw/reports/playwright-evidence.json',
      '--project',
      project.key,
      '--run-name',
      'a',
    ]);
    const { answer } = await submit(
      h,
      ['pw/reports/playwright-evidence.json', '--project', project.key, '--run-name', 'b'],
      count.retry,
    );
    expect(answer.attachments).toMatchObject({ named: NAMED, stored: NAMED, uploaded: 0 });
    expect(count.puts()).toBe(0);
    expect([count.creates(), count.completes()]).toEqual([1, 0]);
    await expectRunAttached(h, answer.run.id, path.join(h.dir, 'pw'), readFromService);
  });

  it('warns of a missing file and attaches the rest (exit 0)', async () => {
    copyRun(h.dir, 'pw-missing');
    rmSync(
      path.join(
        h.dir,
        'pw-missing/test-results/checkout-Checkout-recovers-on-retry-chromium-retry1/video.webm',
      ),
    );
    const { answer, err } = await submit(h, [
      'pw-missing/reports/playwright-evidence.json',
      '--project',
      project.key,
      '--run-name',
      'missing',
    ]);
    expect(err).toMatch(/warning: attachment retry1-video\.webm of .*recovers on retry.*no file/);
    expect(answer.attachments).toMatchObject({ named: NAMED, stored: NAMED - 1 });
    expect(answer.attachments?.skipped).toHaveLength(1);
    const results = await resultsOf(h, answer.run.id);
    expect(results.get(RECOVERS)?.attachments.map((a) => a.name)).toEqual([
      'test-failed-1.png',
      'error-context.md',
      'retry1-trace.zip',
    ]);
  });

  it('warns of a file over 256 MiB (unread) and of one the service refuses (413), and attaches the rest', async () => {
    h.write('big/ok.txt', 'step 3 failed\n');
    h.write('big/over-service-limit.webm', 'v'.repeat(2 * 1024 * 1024));
    h.write('big/huge.webm', '');
    // Sparse: 257 MiB said, nothing written; the reporter must refuse it before reading it.
    truncateSync(path.join(h.dir, 'big/huge.webm'), 257 * 1024 * 1024);
    const lines = ['ok.txt', 'over-service-limit.webm', 'huge.webm', 'gone.png']
      .map((file) => `[[ATTACHMENT|${file}]]`)
      .join('\n');
    h.write(
      'big/report.xml',
      `<testsuites><testsuite name="big"><testcase classname="big" name="case"><failure message="no"/><system-out>${lines}</system-out></testcase></testsuite></testsuites>`,
    );
    const { answer, err } = await submit(
      h,
      ['big/report.xml', '--project', project.key, '--run-name', 'big'],
      count.retry,
    );
    expect(answer.attachments).toMatchObject({ named: 4, stored: 1, uploaded: 1 });
    expect(answer.attachments?.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['huge.webm', expect.stringMatching(/257\.0 MiB, over the 256\.0 MiB limit/)],
      ['gone.png', expect.stringMatching(/^no file /)],
      ['over-service-limit.webm', expect.stringMatching(/refused by the service \(413/)],
    ]);
    expect(err.match(/warning: attachment/g)).toHaveLength(3);
    // The refused item's batch sent again without it: 2 creates, 1 complete.
    expect([count.creates(), count.completes(), count.puts()]).toEqual([2, 1, 1]);
    const results = await resultsOf(h, answer.run.id);
    expect(results.get('big.case')?.attachments.map((a) => a.name)).toEqual(['ok.txt']);
  });

  it('sends none with --no-attachments, or TM_ATTACHMENTS=false', async () => {
    for (const [run, flags, env] of [
      ['none', ['--no-attachments'], {}],
      ['none-env', [], { TM_ATTACHMENTS: 'false' }],
    ] as const) {
      count.reset();
      const { answer } = await submit(
        h,
        [
          'pw/reports/playwright-evidence.json',
          '--project',
          project.key,
          '--run-name',
          run,
          ...flags,
        ],
        count.retry,
        env,
      );
      expect(answer.attachments).toBeUndefined();
      expect([count.creates(), count.completes(), count.puts()]).toEqual([0, 0, 0]);
      const results = await resultsOf(h, answer.run.id);
      expect([...results.values()].flatMap((r) => r.attachments)).toEqual([]);
    }
  });

  it("attaches the files of a JUnit report's [[ATTACHMENT|path]] lines (relative to the report)", async () => {
    const { answer } = await submit(h, [
      'pw/reports/playwright-evidence-junit.xml',
      '--project',
      project.key,
      '--run-name',
      'junit',
      '--configuration',
      'ci',
    ]);
    const results = await resultsOf(h, answer.run.id);
    const coupon = results.get('checkout.spec.js.Checkout › applies a coupon');
    expect(coupon?.configuration).toBe('ci');
    expect(coupon?.attachments.map((a) => a.name)).toEqual(
      expect.arrayContaining(['test-failed-1.png', 'video.webm', 'trace.zip', 'error-context.md']),
    );
    expect(answer.attachments?.skipped).toEqual([]);
    const trace = coupon?.attachments.find((a) => a.name === 'trace.zip');
    const redirect = await h.get(`/api/v1/attachments/${trace?.id}/content`);
    const served = await readFromService(redirect.headers.location);
    expect(served.bytes).toEqual(
      readFileSync(
        path.join(
          FIXTURE,
          'test-results/checkout-Checkout-applies-a-coupon-chromium-retry1/trace.zip',
        ),
      ),
    );
  });

  it('spends one create and one complete call per 100 attachments (250 files: 3 + 3)', async () => {
    const files = Array.from({ length: 250 }, (_, i) => `many/shot-${i}.png`);
    for (const [i, file] of files.entries()) h.write(file, `fake png ${i} ${'x'.repeat(i)}`);
    const cases = Array.from({ length: 5 }, (_, c) => {
      const lines = files
        .slice(c * 50, c * 50 + 50)
        .map((file) => `[[ATTACHMENT|${file}]]`)
        .join('\n');
      return `<testcase classname="many" name="case${c}"><failure message="no"/><system-out><![CDATA[${lines}]]></system-out></testcase>`;
    });
    h.write(
      'many/report.xml',
      `<testsuites><testsuite name="many">${cases.join('')}</testsuite></testsuites>`,
    );
    const { answer } = await submit(
      h,
      ['many/report.xml', '--project', project.key, '--run-name', 'many'],
      count.retry,
    );
    expect(answer.attachments).toMatchObject({ named: 250, stored: 250, uploaded: 250, calls: 6 });
    expect([count.creates(), count.completes(), count.puts()]).toEqual([3, 3, 250]);
    const results = await resultsOf(h, answer.run.id);
    expect(results.get('many.case4')?.attachments).toHaveLength(50);
  });
});

describe('tm-report attaches the evidence of a real Playwright run (S3-compatible store)', () => {
  let h: ReporterHarness;
  let s3: S3Server;
  let project: ProjectFixture;

  beforeAll(async () => {
    s3 = await startS3Server();
    h = await startReporterHarness(RUN_SCOPES_WITH_BUILDS, (port) => ({
      ...s3.settings,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }));
    project = await createProject(h.t, h.orgId);
    copyRun(h.dir, 'pw');
  });
  afterAll(async () => {
    await h.t.close();
    await s3.close();
  });

  it('uploads straight to the store through its presigned URLs, and the bytes read back are the files', async () => {
    const count = counter();
    const { answer } = await submit(
      h,
      ['pw/reports/playwright-evidence.json', '--project', project.key, '--run-name', 's3'],
      count.retry,
    );
    expect(answer.attachments).toMatchObject({ named: NAMED, stored: NAMED, uploaded: DISTINCT });
    const puts = count.calls.filter((c) => c.startsWith('PUT '));
    expect(puts).toHaveLength(DISTINCT);
    // Path-style presigned URLs of the bucket: the bytes never went through the service.
    for (const put of puts) expect(put).toMatch(new RegExp(`^PUT /${s3.bucket}/`));
    expect([count.creates(), count.completes()]).toEqual([1, 1]);
    // Read back through the service, which reads them from the store.
    await expectRunAttached(h, answer.run.id, path.join(h.dir, 'pw'), (location) =>
      readThroughService(h, location),
    );
    const objects = await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`);
    expect((await objects.text()).match(/<Key>/g)).toHaveLength(DISTINCT);
  });
});
