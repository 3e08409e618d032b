// Results intelligence (CONTRACT §12) over a project with 100 runs of 20,000 cases each
// (2,000,000 results; ~1 % failing, most failures under 5 signatures, ~300 flaky cases; see
// bench/intelligence/seed.mjs for the whole mix), bulk-loaded with COPY into a fresh database.
//
// Measures, over HTTP against the built service (`dist/main.js`), sequential requests on one
// keep-alive connection, p50 / p99 / max of:
//   GET /api/v1/testruns/{last}/comparison   target p99 < 200 ms
//   GET /api/v1/testruns/{last}/gate         target p99 < 200 ms
//   GET /api/v1/testruns/{last}/failures     target p99 < 100 ms
//   GET /api/v1/testcases/{id}/results       target p99 < 20 ms  (first page, flaky and stable cases)
//   GET /api/v1/projects/{id}/flaky-tests    target p99 < 1 s
// with yardsticks measured in the same run: GET /healthz (the HTTP pipeline alone) and
// GET /api/v1/testruns/{last} (one indexed row read). An endpoint whose route answers 404 is
// reported as "not built" and skipped.
//
// Usage:
//   npm run bench:intelligence                        fresh scratch database, dropped at the end
//   node bench/intelligence.mjs --keep                keep the scratch database (its name is printed)
//   node bench/intelligence.mjs --database NAME       seed database NAME (must not exist); a named
//                                                     database is always kept
//   node bench/intelligence.mjs --database NAME --reuse   measure against NAME as seeded earlier
//   node bench/intelligence.mjs --database NAME --seed-only   seed NAME and stop
// Environment: BENCH_REQUESTS (200), BENCH_FLAKY_REQUESTS (30), BENCH_RUNS (100), BENCH_CASES
// (20,000), BENCH_ADMIN_DATABASE_URL (see support.mjs).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ADMIN_DATABASE_URL, benchProject, dropDatabase, operator, startService, viaHttps } from './support.mjs';
import { sampleCases, seed, seedMarker, seedOptions } from './intelligence/seed.mjs';

const { values: args } = parseArgs({
  options: {
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    'seed-only': { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const FLAKY_REQUESTS = Number(process.env.BENCH_FLAKY_REQUESTS ?? 30);
const PROJECT_KEY = 'INTEL';
const SCOPES = ['testruns:read', 'results:read', 'projects:read'];
const options = seedOptions();

const name = args.database ?? `tm_bench_intel_${randomBytes(3).toString('hex')}`;
const keep = args.keep || args.database !== undefined;
const dbUrl = (database) => Object.assign(new URL(ADMIN_DATABASE_URL), { pathname: `/${database}` }).toString();
const url = dbUrl(name);

const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
await admin.connect();
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
await admin.end();
if (exists && !args.reuse) {
  console.error(`database ${name} exists: pass --reuse to measure against it, or drop it first`);
  process.exit(2);
}
if (!exists && args.reuse) {
  console.error(`database ${name} does not exist: run without --reuse to seed it`);
  process.exit(2);
}

// Creates the database if needed and applies pending migrations (also on reuse: new ones land).
execFileSync(process.execPath, [resolve('dist/migrate.js')], {
  env: { ...process.env, DATABASE_URL: url },
  cwd: tmpdir(),
  stdio: ['ignore', 'ignore', 'inherit'],
});

const service = await startService({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '1000000' });
const db = new pg.Client({ connectionString: url });
await db.connect();
let failed = false;
try {
  let org, key, project;
  if (args.reuse) {
    const found = await db.query('SELECT id, organization_id FROM project WHERE key = $1 AND description = $2', [
      PROJECT_KEY,
      seedMarker(options),
    ]);
    if (found.rowCount !== 1) throw new Error(`${name} holds no complete seed of ${JSON.stringify(options)}: seed it afresh`);
    project = { id: found.rows[0].id };
    org = { id: found.rows[0].organization_id };
    ({ key } = await operator(service.base, 'POST', `/internal/v1/organizations/${org.id}/api-keys`, { name: 'bench', scopes: SCOPES }));
    console.log(`reusing ${name}`);
  } else {
    ({ org, key, project } = await benchProject(service.base, SCOPES, 'Shop', PROJECT_KEY));
    const release = await operator(service.base, 'POST', `/internal/v1/projects/${project.id}/releases`, { name: 'R1' });
    console.log(`seeding ${name}: ${options.runs} runs × ${options.cases} cases (COPY, triggers enabled)`);
    const started = Date.now();
    const loaded = await seed(db, { organizationId: org.id, projectId: project.id, releaseId: release.id }, options, console.log);
    const copied = Date.now();
    await db.query('VACUUM (ANALYZE)');
    await db.query('UPDATE project SET description = $2 WHERE id = $1', [project.id, seedMarker(options)]);
    console.log(
      `seeded ${loaded.results} results of ${loaded.cases} cases in ${loaded.runs} runs: COPY ${((copied - started) / 1000).toFixed(1)} s, ` +
        `VACUUM ANALYZE ${((Date.now() - copied) / 1000).toFixed(1)} s`,
    );
  }

  // What the database holds.
  const size = (await db.query('SELECT pg_size_pretty(pg_database_size(current_database())) AS size')).rows[0].size;
  const stats = (
    await db.query(
      `SELECT (SELECT count(*) FROM test_case WHERE project_id = $1)::int AS cases,
              (SELECT count(*) FROM test_run WHERE project_id = $1)::int AS runs,
              (SELECT sum(total) FROM test_run WHERE project_id = $1)::int AS results,
              (SELECT sum(failed + blocked) FROM test_run WHERE project_id = $1)::int AS failures,
              (SELECT sum(flaky) FROM test_run WHERE project_id = $1)::int AS flaky,
              (SELECT count(DISTINCT signature) FROM test_result WHERE signature IS NOT NULL)::int AS signatures`,
      [project.id],
    )
  ).rows[0];
  const top5 = (
    await db.query(
      `SELECT sum(n)::int AS n FROM (SELECT count(*) AS n FROM test_result WHERE signature IS NOT NULL
        GROUP BY signature ORDER BY count(*) DESC LIMIT 5) t`,
    )
  ).rows[0].n;
  console.log(
    `database ${name}: ${size}; ${stats.cases} cases, ${stats.runs} runs, ${stats.results} results, ` +
      `${stats.failures} failed or blocked (${((100 * stats.failures) / stats.results).toFixed(2)} %, ` +
      `${((100 * top5) / stats.failures).toFixed(0)} % under the top 5 of ${stats.signatures} signatures), ${stats.flaky} flaky`,
  );
  if (!args['seed-only']) failed = await measure(project, key);
} catch (error) {
  failed = true;
  throw error;
} finally {
  await db.end();
  await service.stop();
  if (keep) console.log(`database kept: ${name} (${url}); measure again with --database ${name} --reuse (same BENCH_RUNS and BENCH_CASES)`);
  else await dropDatabase(name);
}
process.exitCode = failed ? 1 : 0;

/** Times every endpoint; true when some built endpoint missed its target. */
async function measure(project, key) {
  let failed = false;
  const last = (
    await db.query('SELECT id FROM test_run WHERE project_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [project.id])
  ).rows[0].id;
  const samples = sampleCases(options);
  const headers = { ...viaHttps, authorization: `Bearer ${key}` };
  const api = `${service.base}/api/v1`;

  const endpoints = [
    { name: 'GET /healthz (yardstick)', paths: ['/healthz'].map((p) => `${service.base}${p}`), count: REQUESTS },
    { name: 'GET /testruns/{id} (yardstick)', paths: [`${api}/testruns/${last}`], count: REQUESTS },
    { name: 'GET /testruns/{id}/comparison', paths: [`${api}/testruns/${last}/comparison`], count: REQUESTS, target: 200 },
    { name: 'GET /testruns/{id}/gate', paths: [`${api}/testruns/${last}/gate`], count: REQUESTS, target: 200 },
    { name: 'GET /testruns/{id}/failures', paths: [`${api}/testruns/${last}/failures`], count: REQUESTS, target: 100 },
    {
      name: 'GET /testcases/{id}/results (flaky)',
      paths: samples.flaky.map((id) => `${api}/testcases/${id}/results?limit=25`),
      count: REQUESTS,
      target: 20,
    },
    {
      name: 'GET /testcases/{id}/results (stable)',
      paths: samples.stable.map((id) => `${api}/testcases/${id}/results?limit=25`),
      count: REQUESTS,
      target: 20,
    },
    { name: 'GET /projects/{id}/flaky-tests', paths: [`${api}/projects/${project.id}/flaky-tests`], count: FLAKY_REQUESTS, target: 1000 },
  ];

  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const rows = [];
  const notes = [];
  for (const endpoint of endpoints) {
    const probe = await get(agent, endpoint.paths[0], headers);
    if (probe.status === 404) {
      console.log(`${endpoint.name}: not built (404 for ids that exist: ${probe.body.slice(0, 100)}): skipped`);
      rows.push({ endpoint: endpoint.name, requests: 0, 'p50 ms': '', 'p99 ms': '', 'max ms': '', target: target(endpoint), verdict: 'not built' });
      continue;
    }
    if (probe.status !== 200) throw new Error(`${endpoint.paths[0]}: ${probe.status} ${probe.body.slice(0, 300)}`);
    notes.push(summary(endpoint.name, JSON.parse(probe.body)));
    // A warm-up of a tenth of the count (at least 3), then the timed requests.
    const warmup = Math.max(3, Math.floor(endpoint.count / 10));
    for (let i = 0; i < warmup; i++) await timed(agent, endpoint.paths[i % endpoint.paths.length], headers);
    const times = [];
    for (let i = 0; i < endpoint.count; i++) times.push(await timed(agent, endpoint.paths[i % endpoint.paths.length], headers));
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    const met = endpoint.target === undefined ? '' : at(0.99) < endpoint.target ? 'PASS' : 'FAIL';
    if (met === 'FAIL') failed = true;
    rows.push({
      endpoint: endpoint.name,
      requests: times.length,
      'p50 ms': round(at(0.5)),
      'p99 ms': round(at(0.99)),
      'max ms': round(times[times.length - 1]),
      target: target(endpoint),
      verdict: met,
    });
  }
  agent.destroy();
  for (const note of notes.filter(Boolean)) console.log(note);
  console.table(rows);
  console.log(failed ? 'some target NOT met' : 'every built endpoint met its target');
  return failed;
}

function target(endpoint) {
  return endpoint.target === undefined ? '' : `p99 < ${endpoint.target} ms`;
}

function round(ms) {
  return Number(ms.toFixed(ms < 10 ? 2 : 1));
}

/** A line on what the endpoint answered, to see the data set is the one intended. */
function summary(name, body) {
  if (name.includes('comparison')) return `comparison: baseline ${body.baseline_run_id}, ${JSON.stringify(body.summary)}`;
  if (name.includes('gate')) return `gate: passed ${body.passed}, ${JSON.stringify(body.rules?.map((r) => [r.name, r.passed]))}`;
  if (name.includes('failures') || name.includes('flaky-tests'))
    return `${name.split(' ')[1]}: ${body.pagination?.total} items, first ${JSON.stringify(body.data?.[0])?.slice(0, 200)}`;
  return null;
}

function get(agent, target, headers) {
  return new Promise((done, fail) => {
    const u = new URL(target);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode, body }));
    });
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
