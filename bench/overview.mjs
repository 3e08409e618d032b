// The project overview's reads (issue 31) over the results-intelligence data set: a project
// with 100 runs of 20,000 cases each (2,000,000 results, ~1 % failing, ~300 flaky cases; see
// bench/intelligence/seed.mjs), bulk-loaded with COPY into a fresh database by the same seeder.
//
// Measures, over HTTP against the built service (`dist/main.js`), as the console reads them
// (the operator token on `/internal/v1`), sequential requests on one keep-alive connection,
// p50 / p99 / max of each of the overview page's reads, every target p99 < 200 ms:
//   GET …/projects/{id}/overview                          the latest run of each name, the series
//   GET …/projects/{id}/overview/trend?name&branch        30 runs of "nightly" on main
//   GET …/projects/{id}/overview/recurring-failures       10 runs of "nightly" on main, and of any
//   GET …/projects/{id}/flaky-tests?limit=5               the most flaky tests
//   GET …/testruns/{latest nightly}/comparison            what changed since the previous run
// with the yardstick GET /healthz (the HTTP pipeline alone). Then, when /usr/bin/chromium is
// there, the page itself in a headless browser against the service over TLS (signed in with the
// operator token), NAVIGATIONS times: from the navigation's start to the latest runs' first row
// (the first useful content) and to every section drawn (the four charts, what changed, the
// recurring failures and the flaky tests).
//
// Usage:
//   npm run bench:overview                               fresh scratch database, dropped at the end
//   node bench/overview.mjs --keep                       keep the scratch database (its name is printed)
//   node bench/overview.mjs --database NAME              seed database NAME (must not exist); kept
//   node bench/overview.mjs --database NAME --reuse      measure against NAME as seeded earlier
//                                                        (by this or by bench/intelligence.mjs)
// Environment: BENCH_REQUESTS (200), BENCH_RUNS (100), BENCH_CASES (20,000),
// BENCH_ADMIN_DATABASE_URL (see support.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import {
  ADMIN_DATABASE_URL,
  ADMIN_TOKEN,
  benchProject,
  dropDatabase,
  operator,
  startService,
  viaHttps,
} from './support.mjs';
import { seed, seedMarker, seedOptions } from './intelligence/seed.mjs';

const { values: args } = parseArgs({
  options: {
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
    reuse: { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const NAVIGATIONS = Number(process.env.BENCH_NAVIGATIONS ?? 5);
const CHROMIUM = '/usr/bin/chromium';
const PROJECT_KEY = 'INTEL';
const TARGET_MS = 200;
const options = seedOptions();

const name = args.database ?? `tm_bench_overview_${randomBytes(3).toString('hex')}`;
const keep = args.keep || args.database !== undefined;
const url = Object.assign(new URL(ADMIN_DATABASE_URL), { pathname: `/${name}` }).toString();

const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
await admin.connect();
const exists =
  (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
await admin.end();
if (exists !== args.reuse) {
  console.error(
    exists
      ? `database ${name} exists: pass --reuse to measure against it`
      : `database ${name} does not exist: run without --reuse to seed it`,
  );
  process.exit(2);
}

// Creates the database if needed and applies pending migrations (on reuse too: the overview's
// indexes land on a database seeded before them).
const migrating = Date.now();
execFileSync(process.execPath, [resolve('dist/migrate.js')], {
  env: { ...process.env, DATABASE_URL: url },
  cwd: tmpdir(),
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (args.reuse)
  console.log(`migrations applied in ${((Date.now() - migrating) / 1000).toFixed(1)} s`);

const service = await startService({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '1000000' });
const db = new pg.Client({ connectionString: url });
await db.connect();
let failed = false;
try {
  let project;
  if (args.reuse) {
    const found = await db.query('SELECT id FROM project WHERE key = $1 AND description = $2', [
      PROJECT_KEY,
      seedMarker(options),
    ]);
    if (found.rowCount !== 1)
      throw new Error(
        `${name} holds no complete seed of ${JSON.stringify(options)}: seed it afresh`,
      );
    project = { id: found.rows[0].id };
    console.log(`reusing ${name}`);
  } else {
    let org;
    ({ org, project } = await benchProject(service.base, ['testruns:read'], 'Shop', PROJECT_KEY));
    const release = await operator(
      service.base,
      'POST',
      `/internal/v1/projects/${project.id}/releases`,
      { name: 'R1' },
    );
    console.log(
      `seeding ${name}: ${options.runs} runs × ${options.cases} cases (COPY, triggers enabled)`,
    );
    const started = Date.now();
    const loaded = await seed(
      db,
      { organizationId: org.id, projectId: project.id, releaseId: release.id },
      options,
      console.log,
    );
    await db.query('VACUUM (ANALYZE)');
    await db.query('UPDATE project SET description = $2 WHERE id = $1', [
      project.id,
      seedMarker(options),
    ]);
    console.log(
      `seeded ${loaded.results} results in ${loaded.runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  failed = await measure(project);
  if (existsSync(CHROMIUM)) await measurePage(project);
  else console.log(`${CHROMIUM} is missing: the page itself is not measured`);
} catch (error) {
  failed = true;
  throw error;
} finally {
  await db.end();
  await service.stop();
  if (keep) console.log(`database kept: ${name}; measure again with --database ${name} --reuse`);
  else await dropDatabase(name);
}
process.exitCode = failed ? 1 : 0;

/** Times every read of the overview page; true when one missed its target. */
async function measure(project) {
  const latestNightly = (
    await db.query(
      `SELECT run.id FROM test_run run JOIN build ON build.id = run.build_id
       WHERE run.project_id = $1 AND run.name = 'nightly' AND build.branch = 'main'
       ORDER BY run.created_at DESC LIMIT 1`,
      [project.id],
    )
  ).rows[0].id;
  const headers = { ...viaHttps, authorization: `Bearer ${ADMIN_TOKEN}` };
  const internal = `${service.base}/internal/v1`;
  const overview = `${internal}/projects/${project.id}/overview`;
  const reads = [
    { name: 'GET /healthz (yardstick)', path: `${service.base}/healthz` },
    { name: 'overview (latest runs, series)', path: overview, target: TARGET_MS },
    {
      name: 'overview/trend (30 runs)',
      path: `${overview}/trend?name=nightly&branch=main&runs=30`,
      target: TARGET_MS,
    },
    {
      name: 'overview/recurring-failures (nightly, main)',
      path: `${overview}/recurring-failures?name=nightly&branch=main&runs=10`,
      target: TARGET_MS,
    },
    {
      name: 'overview/recurring-failures (any run)',
      path: `${overview}/recurring-failures?runs=10`,
      target: TARGET_MS,
    },
    {
      name: 'flaky-tests?limit=5',
      path: `${internal}/projects/${project.id}/flaky-tests?limit=5`,
      target: TARGET_MS,
    },
    {
      name: 'testruns/{latest}/comparison',
      path: `${internal}/testruns/${latestNightly}/comparison`,
      target: TARGET_MS,
    },
  ];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const rows = [];
  let missed = false;
  for (const read of reads) {
    const probe = await get(agent, read.path, headers);
    if (probe.status !== 200)
      throw new Error(`${read.path}: ${probe.status} ${probe.body.slice(0, 300)}`);
    const note = summary(read.name, JSON.parse(probe.body));
    if (note) console.log(`${read.name}: ${note}`);
    for (let i = 0; i < Math.max(3, REQUESTS / 10); i++) await timed(agent, read.path, headers);
    const times = [];
    for (let i = 0; i < REQUESTS; i++) times.push(await timed(agent, read.path, headers));
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    const verdict = read.target === undefined ? '' : at(0.99) < read.target ? 'PASS' : 'FAIL';
    if (verdict === 'FAIL') missed = true;
    rows.push({
      read: read.name,
      requests: times.length,
      'p50 ms': round(at(0.5)),
      'p99 ms': round(at(0.99)),
      'max ms': round(times[times.length - 1]),
      target: read.target === undefined ? '' : `p99 < ${read.target} ms`,
      verdict,
    });
  }
  agent.destroy();
  console.table(rows);
  console.log(missed ? 'some target NOT met' : 'every read met its target');
  return missed;
}

/**
 * The overview page in headless chromium, against a second service started over TLS (the
 * console's session cookie is Secure): milliseconds from each navigation's start to the latest
 * runs' first row, and to every section drawn, in the page's own clock.
 */
async function measurePage(project) {
  const tlsService = await startService({
    DATABASE_URL: url,
    TLS_SELF_SIGNED: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext({
      baseURL: tlsService.base,
      ignoreHTTPSErrors: true,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto('/console/sign-in');
    await page.getByLabel('Operator token').fill(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/organizations/);
    await page.addInitScript(`
      new MutationObserver((_, observer) => {
        if (!window.firstContentAt && document.querySelector('table.latest-runs tbody tr'))
          window.firstContentAt = performance.now();
        const drawn = document.querySelectorAll('.trend-chart canvas').length >= 4 &&
          document.querySelector('[data-compare="new_failures"]') &&
          document.querySelector('[aria-labelledby="recurring-title"] tbody tr') &&
          document.querySelector('[aria-labelledby="flaky-title"] tbody tr');
        if (drawn) {
          window.everythingAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    `);
    const first = [];
    const all = [];
    for (let i = 0; i < NAVIGATIONS; i++) {
      await page.goto(`/console/projects/${project.id}`);
      // Polled: the console's Content-Security-Policy refuses waitForFunction's eval.
      while ((await page.evaluate(() => window.everythingAt)) === undefined)
        await new Promise((r) => setTimeout(r, 50));
      first.push(Math.round(await page.evaluate(() => window.firstContentAt)));
      all.push(Math.round(await page.evaluate(() => window.everythingAt)));
    }
    console.log(`overview page, ${NAVIGATIONS} navigations (ms from the navigation's start):`);
    console.log(`  first useful content (the latest runs' first row): ${first.join(', ')}`);
    console.log(
      `  every section drawn (charts, changes, recurring failures, flaky tests): ${all.join(', ')}`,
    );
  } finally {
    await browser.close();
    await tlsService.stop();
  }
}

/** A line on what the read answered, to see the data set is the one intended. */
function summary(name, body) {
  if (name.startsWith('overview ('))
    return `${body.latest_runs.length} latest runs, ${body.series.length} series`;
  if (name.includes('trend'))
    return `${body.runs.length} runs, pass rates ${body.runs
      .slice(-3)
      .map((r) => r.pass_rate)
      .join(', ')} (last 3)`;
  if (name.includes('recurring'))
    return `${body.runs_read} runs read, ${body.data.length} causes, first ${JSON.stringify(body.data[0])?.slice(0, 160)}`;
  if (name.includes('flaky'))
    return `${body.pagination.total} flaky, first ${body.data[0]?.automation_id}`;
  if (name.includes('comparison')) return JSON.stringify(body.summary);
  return null;
}

function round(ms) {
  return Number(ms.toFixed(ms < 10 ? 2 : 1));
}

function get(agent, target, headers) {
  return new Promise((done, fail) => {
    const u = new URL(target);
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, headers, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => done({ status: res.statusCode, body }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

/** One request's time in milliseconds (status and whole body read); any non-200 is an error. */
async function timed(agent, target, headers) {
  const started = process.hrtime.bigint();
  const res = await get(agent, target, headers);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) throw new Error(`${target}: ${res.status} ${res.body.slice(0, 300)}`);
  return ms;
}
