// The runs list, the searches and the CSV exports (issue 31) on the results-intelligence data
// set (bench/intelligence/seed.mjs: BENCH_RUNS runs of BENCH_CASES cases, "nightly" on main, a
// few on feature/x, a few "smoke"), loaded with COPY into a new database, then ANALYZE.
// Against the built service over HTTP, sequential requests on one keep-alive connection:
//   - p50/p99 of the runs list (first page; one name; one branch), the failure search (a
//     common error in 10 and 30 runs, a text found nowhere) and the test search across projects;
//   - one 20,000-result run exported as CSV: time, bytes, and the service's RSS before and at
//     its peak while the export streams (sampled every 20 ms); the flaky list exported.
//
// Usage: npm run build && node bench/runs-list.mjs
// Environment: BENCH_RUNS (30), BENCH_CASES (20,000), BENCH_REQUESTS (30), BENCH_KEEP.
import { Agent, request } from 'node:http';
import pg from 'pg';
import { seed, seedOptions } from './intelligence/seed.mjs';
import { ADMIN_TOKEN, benchProject, createDatabase, dropDatabase, operator, rss, sampleRss, startService, viaHttps } from './support.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const options = seedOptions({ BENCH_RUNS: process.env.BENCH_RUNS ?? 30, BENCH_CASES: process.env.BENCH_CASES ?? 20_000 });

const db = createDatabase('runslist');
const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '1000000' });
const client = new pg.Client({ connectionString: db.url });
await client.connect();
try {
  const { org, project } = await benchProject(service.base, ['testruns:read'], 'Runs list', 'RL');
  const release = await operator(service.base, 'POST', `/internal/v1/projects/${project.id}/releases`, { name: 'R1' });
  const started = Date.now();
  await seed(client, { organizationId: org.id, projectId: project.id, releaseId: release.id }, options);
  console.log(`seeded ${options.runs} runs × ${options.cases} cases in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await client.query('ANALYZE');

  const headers = { ...viaHttps, authorization: `Bearer ${ADMIN_TOKEN}` };
  const internal = `${service.base}/internal/v1`;
  const reads = [
    ['runs list, first page', `${internal}/projects/${project.id}/testruns`],
    ['runs list, name=nightly', `${internal}/projects/${project.id}/testruns?name=nightly`],
    ['runs list, branch=feature/x', `${internal}/projects/${project.id}/testruns?branch=feature%2Fx`],
    ['failure search "connection refused" (10 runs, the default)', `${internal}/projects/${project.id}/failures/search?q=connection%20refused`],
    ['failure search "connection refused" (30 runs)', `${internal}/projects/${project.id}/failures/search?q=connection%20refused&runs=30`],
    ['failure search "naïve" (found nowhere, 30 runs)', `${internal}/projects/${project.id}/failures/search?q=na%C3%AFve&runs=30`],
    ['test search across projects "checkout"', `${internal}/organizations/${org.id}/testcases/search?q=checkout`],
  ];
  const rows = [];
  for (const [name, url] of reads) rows.push({ measure: `${name} p50/p99 ms`, value: await timeReads(url, headers) });

  const runId = (await client.query('SELECT id FROM test_run WHERE project_id = $1 ORDER BY total DESC LIMIT 1', [project.id])).rows[0].id;
  const before = rss(service.child.pid);
  const peak = sampleRss(service.child.pid, 20);
  const exported = await download(`${internal}/testruns/${runId}/results/export`, headers);
  peak.stop();
  rows.push({ measure: `export of a ${options.cases}-result run (ms)`, value: Math.round(exported.ms) });
  rows.push({ measure: 'its size (MB) and lines', value: `${(exported.bytes / 1e6).toFixed(1)} / ${exported.lines}` });
  rows.push({ measure: 'service RSS before / peak while exporting (MB)', value: `${(before / 1e6).toFixed(0)} / ${(peak.peak / 1e6).toFixed(0)}` });
  const flaky = await download(`${internal}/projects/${project.id}/flaky-tests/export`, headers);
  rows.push({ measure: 'flaky list export (ms, lines)', value: `${Math.round(flaky.ms)} / ${flaky.lines}` });
  console.table(rows);
} finally {
  await client.end();
  await service.stop();
  if (process.env.BENCH_KEEP) console.log(`database kept: ${db.name}`);
  else await dropDatabase(db.name);
}

async function timeReads(url, headers) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < 3; i++) await get(agent, url, headers);
    const ms = [];
    for (let i = 0; i < REQUESTS; i++) ms.push((await get(agent, url, headers)).ms);
    ms.sort((a, b) => a - b);
    const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
    return `${at(0.5)} / ${at(0.99)}`;
  } finally {
    agent.destroy();
  }
}

function download(url, headers) {
  return get(new Agent(), url, headers);
}

/** One GET, read to its end: its time, bytes and lines (CRLF). */
function get(agent, url, headers) {
  return new Promise((done, fail) => {
    const target = new URL(url);
    const started = process.hrtime.bigint();
    const req = request({ host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent }, (res) => {
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) fail(new Error(`${url}: ${res.statusCode}`));
        else done({ ms: Number(process.hrtime.bigint() - started) / 1e6, bytes, lines });
      });
    });
    req.on('error', fail);
    req.end();
  });
}
