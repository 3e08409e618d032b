// tm-report attaching a Playwright run's evidence (issue 30, CONTRACT §15) against plain curl
// PUTs of the same files to the same store's upload URLs. The built service (filesystem store)
// on loopback; 500 files of about 200 KB (BENCH_FILES, BENCH_KB), distinct random bytes, named
// by a Playwright JSON report of 100 tests × 5 attachments (a screenshot, a video, a trace, two
// logs), as a failing run's test-results/ folder holds them.
//   (A) tm-report: one `submit` process of the report (its results, then its attachments: the
//       files hashed, 5 create calls, 4 uploads at once, 5 complete calls), whole wall time;
//   (B) curl: the report's results ingested and the attachments described through the API
//       (untimed: curl gets the upload URLs from it), then one curl process PUTs the 500 files to
//       their upload URLs, 4 at once (--parallel --parallel-max 4, connections reused); timed.
// Each variant runs in an organization of its own (content is kept once per organization, so
// neither finds the other's), alternating A, B (BENCH_ROUNDS rounds, 3 by default) after an
// unmeasured warm-up of each; medians are printed, their ratio (target: A within 1.3 × B), and
// the API calls of A's attachments (target ≤ 10) and of its whole submit (the organization's
// calls_this_period). After each variant every attachment is checked `stored`.
// Measured 2026-11-26 on the shared 2-core machine (load average 14–21), 5 rounds: tm-report
// 5.08 s, curl 4.46 s (medians): 1.14 ×, the rounds' own ratios 0.70–1.64 × (median 0.99 ×);
// client CPU 0.71 s (hashing 98 MiB included) against curl's 0.13 s; 10 attachment calls, 18
// for the whole submit by the organization's count (the 500 uploads count against no limit).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  benchProject,
  createDatabase,
  dropDatabase,
  freePort,
  operator,
  startService,
  viaHttps,
} from './support.mjs';

const FILES = Number(process.env.BENCH_FILES ?? 500);
const KB = Number(process.env.BENCH_KB ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PER_TEST = 5;
const TESTS = Math.ceil(FILES / PER_TEST);
const SCOPES = [
  'testruns:create',
  'testruns:read',
  'testruns:update',
  'results:submit',
  'results:read',
  'projects:read',
];
const CLI = resolve('packages/reporter/dist/cli.js');

try {
  execFileSync('sh', ['-c', 'command -v curl'], { stdio: 'ignore' });
} catch {
  console.error('bench:attachments-reporter needs curl on the PATH');
  process.exit(1);
}

function run(file, args, options = {}) {
  return new Promise((done, fail) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, out, err) =>
      error
        ? fail(new Error(`${file} ${args.slice(0, 3).join(' ')}…: ${error.code} ${err}`))
        : done(out),
    );
  });
}

// The run's folder: test-results/<test>/{test-failed-1.png, video.webm, trace.zip, …} and the
// Playwright JSON report naming them by absolute path, as Playwright writes it.
const dir = mkdtempSync(join(tmpdir(), 'tm-bench-attachments-'));
const KINDS = [
  ['screenshot', 'image/png', 'test-failed-1.png'],
  ['video', 'video/webm', 'video.webm'],
  ['trace', 'application/zip', 'trace.zip'],
  ['stdout', 'text/plain', 'stdout.txt'],
  ['error-context', 'text/markdown', 'error-context.md'],
];
const files = [];
const specs = [];
for (let t = 0; t < TESTS; t++) {
  const folder = join(dir, 'test-results', `cart-Cart-test-${t}-chromium`);
  mkdirSync(folder, { recursive: true });
  const attachments = [];
  for (const [name, contentType, file] of KINDS.slice(0, Math.min(PER_TEST, FILES - files.length))) {
    const path = join(folder, file);
    writeFileSync(path, randomBytes(KB * 1024));
    files.push(path);
    attachments.push({ name, contentType, path });
  }
  specs.push({
    title: `test ${t}`,
    ok: false,
    file: 'cart.spec.js',
    tests: [
      {
        projectName: 'chromium',
        status: 'unexpected',
        results: [{ retry: 0, status: 'failed', duration: 10, error: { message: 'no' }, attachments }],
      },
    ],
  });
}
const report = join(dir, 'playwright.json');
writeFileSync(
  report,
  JSON.stringify({
    config: { rootDir: dir, projects: [{ name: 'chromium' }] },
    suites: [{ title: 'cart.spec.js', file: 'cart.spec.js', specs: [], suites: [{ title: 'Cart', file: 'cart.spec.js', specs }] }],
  }),
);

const port = await freePort();
const db = createDatabase('attachments_reporter');
const store = mkdtempSync(join(tmpdir(), 'tm-bench-attachment-store-'));
const service = await startService({
  PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATABASE_URL: db.url,
  ATTACHMENT_DIR: store,
  RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'warn',
});

const seconds = (started) => Number(process.hrtime.bigint() - started) / 1e9;

/** CPU seconds (user + system) of this process's finished children (tm-report, curl). */
function childrenCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, USER_HZ
}
const callsOf = async (orgId) =>
  (await operator(service.base, 'GET', `/internal/v1/organizations/${orgId}`)).calls_this_period;

async function api(key, method, path, body) {
  const res = await fetch(`${service.base}/api/v1${path}`, {
    method,
    headers: { ...viaHttps, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every attachment of the run stored, by its results' lists. */
async function checkStored(key, runId) {
  let listed = 0;
  for (let offset = 0; ; offset += 100) {
    const res = await fetch(`${service.base}/api/v1/testruns/${runId}/results?limit=100&offset=${offset}`, {
      headers: { ...viaHttps, authorization: `Bearer ${key}` },
    });
    const { data, pagination } = await res.json();
    if (!data) throw new Error(`results of ${runId}: ${res.status}`);
    listed += data.reduce((sum, r) => sum + r.attachments.length, 0);
    if (!pagination.has_more) break;
  }
  if (listed !== FILES) throw new Error(`run ${runId}: ${listed} attachments listed, ${FILES} expected`);
}

/** (A) tm-report's submit: results and attachments. */
async function reporterVariant(round) {
  const { org, key, project } = await benchProject(service.base, SCOPES, `A ${round}`, `A${round}`);
  const before = await callsOf(org.id);
  const env = {
    PATH: process.env.PATH ?? '',
    TM_URL: `${service.base}/api/v1`,
    TM_API_KEY: key,
    TM_EXTRA_HEADERS: JSON.stringify(viaHttps),
  };
  const cpu = childrenCpu();
  const started = process.hrtime.bigint();
  const out = await run(
    process.execPath,
    [CLI, 'submit', report, '--project', project.key, '--run-name', `bench ${round}`, '--json'],
    { cwd: dir, env },
  );
  const wall = seconds(started);
  const cpuSeconds = childrenCpu() - cpu;
  const answer = JSON.parse(out);
  if (answer.attachments?.stored !== FILES || answer.attachments.uploaded !== FILES)
    throw new Error(`reporter: ${JSON.stringify(answer.attachments)}`);
  await checkStored(key, answer.run.id);
  return {
    wall,
    cpu: cpuSeconds,
    calls: answer.attachments.calls,
    total: (await callsOf(org.id)) - before,
  };
}

/** (B) curl: the upload URLs from the API (untimed), then one curl PUTting the files, 4 at once. */
async function curlVariant(round) {
  const { key, project } = await benchProject(service.base, SCOPES, `B ${round}`, `B${round}`);
  const testRun = await api(key, 'POST', '/testruns', { project_id: project.id, name: `bench ${round}` });
  const ingest = await fetch(
    `${service.base}/api/v1/results/ingest?test_run_id=${testRun.id}&format=playwright`,
    {
      method: 'POST',
      headers: { ...viaHttps, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: readFileSync(report),
    },
  );
  if (ingest.status !== 201) throw new Error(`ingest: ${ingest.status}`);
  const { createHash } = await import('node:crypto');
  const links = [];
  for (let from = 0; from < FILES; from += 100) {
    const batch = files.slice(from, from + 100).map((path, i) => {
      const bytes = readFileSync(path);
      const t = Math.floor((from + i) / PER_TEST);
      return {
        automation_id: `cart.spec.js.Cart › test ${t}`,
        configuration: 'chromium',
        name: path.split('/').pop(),
        content_type: 'application/octet-stream',
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
    });
    const { data } = await api(key, 'POST', `/testruns/${testRun.id}/attachments`, { attachments: batch });
    data.forEach((a, i) => links.push({ id: a.id, url: a.upload.url, file: files[from + i] }));
  }
  const config = join(dir, `curl-${round}.conf`);
  writeFileSync(
    config,
    [
      'parallel',
      'parallel-max = 4',
      'silent',
      'show-error',
      'header = "Content-Type: application/octet-stream"',
      ...Object.entries(viaHttps).map(([k, v]) => `header = "${k}: ${v}"`),
      'write-out = "%{http_code}\\n"',
      ...links.flatMap(({ url, file }) => [`upload-file = "${file}"`, `url = "${url}"`, 'output = "/dev/null"']),
    ].join('\n'),
  );
  const cpu = childrenCpu();
  const started = process.hrtime.bigint();
  const out = await run('curl', ['--config', config]);
  const wall = seconds(started);
  const cpuSeconds = childrenCpu() - cpu;
  const codes = out.trim().split('\n');
  if (codes.length !== FILES || codes.some((c) => c !== '200'))
    throw new Error(`curl: ${codes.filter((c) => c !== '200').length} PUTs not 200`);
  for (let from = 0; from < FILES; from += 100)
    await api(key, 'POST', `/testruns/${testRun.id}/attachments/complete`, {
      ids: links.slice(from, from + 100).map((l) => l.id),
    });
  await checkStored(key, testRun.id);
  return { wall, cpu: cpuSeconds };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  console.log(`${FILES} files of ${KB} KB (${((FILES * KB) / 1024).toFixed(0)} MiB), ${TESTS} tests`);
  await reporterVariant('warm-a');
  await curlVariant('warm-b');
  const a = [];
  const b = [];
  for (let round = 1; round <= ROUNDS; round++) {
    a.push(await reporterVariant(round));
    b.push(await curlVariant(round));
    console.log(
      `round ${round}: tm-report ${a.at(-1).wall.toFixed(2)} s (CPU ${a.at(-1).cpu.toFixed(2)} s; ${a.at(-1).calls} attachment calls, ${a.at(-1).total} calls in all), curl PUTs ${b.at(-1).wall.toFixed(2)} s (CPU ${b.at(-1).cpu.toFixed(2)} s): ${(a.at(-1).wall / b.at(-1).wall).toFixed(2)} ×`,
    );
  }
  const wallA = median(a.map((r) => r.wall));
  const wallB = median(b.map((r) => r.wall));
  console.log(`tm-report submit (results + attachments), median: ${wallA.toFixed(2)} s`);
  console.log(`curl PUTs of the same files to their upload URLs, median: ${wallB.toFixed(2)} s`);
  console.log(
    `ratio of the medians: ${(wallA / wallB).toFixed(2)} × (target ≤ 1.3 ×); median of the rounds' ratios: ${median(a.map((r, i) => r.wall / b[i].wall)).toFixed(2)} ×`,
  );
  console.log(
    `client CPU, median: tm-report ${median(a.map((r) => r.cpu)).toFixed(2)} s (hashing included), curl ${median(b.map((r) => r.cpu)).toFixed(2)} s`,
  );
  console.log(
    `API calls of the attachments: ${median(a.map((r) => r.calls))} (target ≤ 10); of the whole submit: ${median(a.map((r) => r.total))}`,
  );
} finally {
  await service.stop();
  await dropDatabase(db.name);
  rmSync(dir, { recursive: true, force: true });
  rmSync(store, { recursive: true, force: true });
}
