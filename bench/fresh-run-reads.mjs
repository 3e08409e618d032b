// Reads of a run the moment it lands, before PostgreSQL has statistics for it (issue 25 item 7).
//
// A fresh database (autovacuum may be off: nothing here waits for it). A project gets
// BENCH_EARLIER_RUNS earlier runs of the same BENCH_CASES-case JUnit report (some failed and
// skipped), then each of two situations is measured on a run ingested just before it:
//   (1) "nothing analyzed": no table has statistics at all;
//   (2) "earlier runs analyzed": ANALYZE ran after the earlier runs (as autoanalyze would have
//       long ago), not after the new run: its run id is in no statistics.
// Each read is timed REQUESTS times, sequentially on one keep-alive connection, over HTTP against
// the built service: the public results list (no filter, each status filter, test_case_id,
// include_history), the console's results list (with `q`), failures, comparison, gate, the run
// (its live counts) and the first event of its live stream. Target: every p99 < 300 ms. A request
// that takes longer than BENCH_TIMEOUT_MS (the service's statement timeout here) ends that
// read's timing.
//
// Usage: npm run bench:fresh-run   (environment: BENCH_EARLIER_RUNS 10, BENCH_CASES 20,000,
// BENCH_REQUESTS 15, BENCH_TIMEOUT_MS 10,000, BENCH_KEEP (keep the database), BENCH_ADMIN_DATABASE_URL,
// see support.mjs)
import { Agent, request } from 'node:http';
import pg from 'pg';
import {
  ADMIN_TOKEN,
  benchProject,
  createDatabase,
  dropDatabase,
  junitReport,
  startService,
  viaHttps,
} from './support.mjs';

const EARLIER_RUNS = Number(process.env.BENCH_EARLIER_RUNS ?? 10);
const CASES = Number(process.env.BENCH_CASES ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 15);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 10_000);
const TARGET_MS = 300;
const SUITES = 20;

const db = createDatabase('fresh');
// A read past TIMEOUT_MS is cut off by the service too (503), so it does not load the machine on.
const service = await startService({
  DATABASE_URL: db.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  DATABASE_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS),
});
const client = new pg.Client({ connectionString: db.url });
await client.connect();
let failed = false;
try {
  const autovacuum = (await client.query('SHOW autovacuum')).rows[0].autovacuum;
  const { key, project } = await benchProject(
    service.base,
    ['testruns:create', 'testruns:read', 'results:submit', 'results:read'],
    'Fresh',
    'FRESH',
  );
  const headers = { ...viaHttps, authorization: `Bearer ${key}` };
  const ingest = async (name, round) => {
    const res = await fetch(
      `${service.base}/api/v1/results/ingest?project_id=${project.id}&run_name=${encodeURIComponent(name)}`,
      { method: 'POST', headers: { ...headers, 'content-type': 'application/xml' }, body: junitReport({ cases: CASES, suites: SUITES, round }) },
    );
    if (res.status !== 201) throw new Error(`ingest ${name}: ${res.status} ${await res.text()}`);
    return (await res.json()).test_run_id;
  };

  console.log(`autovacuum ${autovacuum}; seeding ${EARLIER_RUNS} earlier runs × ${CASES} cases (JUnit ingest)`);
  const seeding = Date.now();
  for (let round = 0; round < EARLIER_RUNS; round++) await ingest('nightly', round);
  console.log(`seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

  const rows = [];
  for (const [n, situation] of ['nothing analyzed', 'earlier runs analyzed'].entries()) {
    if (situation === 'earlier runs analyzed') await client.query('ANALYZE');
    const started = Date.now();
    const runId = await ingest('nightly', EARLIER_RUNS + n);
    console.log(`${situation}: new run ${runId} ingested in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const analyzed = (
      await client.query(
        `SELECT string_agg(relname || ' ' || coalesce(last_analyze::text, 'never'), ', ' ORDER BY relname) AS s
           FROM pg_stat_user_tables WHERE relname IN ('test_result', 'test_run_case')`,
      )
    ).rows[0].s;
    console.log(`  analyzed: ${analyzed}`);
    for (const read of await readsOf(runId)) {
      const times = await timeRead(read.url, read.headers ?? headers, read.stream);
      const at = (q) => times.ms[Math.min(times.ms.length - 1, Math.floor(q * times.ms.length))];
      const met = !times.cut && at(0.99) < TARGET_MS;
      failed ||= !met;
      rows.push({
        situation,
        read: read.name,
        requests: times.ms.length,
        'p50 ms': times.cut ? '' : round(at(0.5)),
        'p99 ms': times.cut ? `> ${Math.round(times.ms.at(-1))} (cut)` : round(at(0.99)),
        verdict: met ? 'PASS' : 'FAIL',
      });
    }
  }
  console.table(rows);
  console.log(failed ? `some p99 is NOT < ${TARGET_MS} ms` : `every p99 < ${TARGET_MS} ms`);
} finally {
  await client.end();
  await service.stop();
  if (process.env.BENCH_KEEP) console.log(`database kept: ${db.name}`);
  else await dropDatabase(db.name);
}
process.exitCode = failed ? 1 : 0;

/** Every read of run `runId` the API and the console make. */
async function readsOf(runId) {
  const api = `${service.base}/api/v1/testruns/${runId}`;
  const internal = `${service.base}/internal/v1/testruns/${runId}`;
  const console_ = { ...viaHttps, authorization: `Bearer ${ADMIN_TOKEN}` };
  const someCase = (
    await client.query('SELECT test_case_id FROM test_run_case WHERE test_run_id = $1 LIMIT 1 OFFSET 777', [runId])
  ).rows[0].test_case_id;
  return [
    { name: 'results', url: `${api}/results?limit=50` },
    { name: 'results status=passed', url: `${api}/results?limit=50&status=passed` },
    { name: 'results status=failed', url: `${api}/results?limit=50&status=failed` },
    { name: 'results status=skipped', url: `${api}/results?limit=50&status=skipped` },
    { name: 'results test_case_id', url: `${api}/results?limit=50&test_case_id=${someCase}` },
    { name: 'results include_history', url: `${api}/results?limit=50&include_history=true` },
    { name: 'failures', url: `${api}/failures` },
    { name: 'comparison', url: `${api}/comparison` },
    { name: 'gate', url: `${api}/gate` },
    { name: 'run (live counts)', url: api },
    { name: 'console: run', url: internal, headers: console_ },
    { name: 'console: results', url: `${internal}/results?limit=50`, headers: console_ },
    { name: 'console: results status=passed', url: `${internal}/results?limit=50&status=passed`, headers: console_ },
    { name: 'console: results q', url: `${internal}/results?limit=50&q=test42`, headers: console_ },
    { name: 'console: failures', url: `${internal}/failures`, headers: console_ },
    { name: 'console: comparison', url: `${internal}/comparison`, headers: console_ },
    { name: 'console: gate', url: `${internal}/gate`, headers: console_ },
    { name: 'console: live (first event)', url: `${internal}/live`, headers: console_, stream: true },
  ];
}

/**
 * REQUESTS sequential requests of `url` (a first one untimed), their times sorted; `cut` when
 * one took longer than TIMEOUT_MS (the rest are then skipped).
 */
async function timeRead(url, headers, stream) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ms = [];
  let cut = false;
  try {
    for (let i = 0; i <= REQUESTS; i++) {
      const started = process.hrtime.bigint();
      const status = await get(agent, url, headers, stream);
      const took = Number(process.hrtime.bigint() - started) / 1e6;
      if (status !== 200) {
        // Cut off here or by the statement timeout (503): the read is too slow to time further.
        if (status !== 'cut' && !String(status).startsWith('503')) throw new Error(`${url}: ${status}`);
        cut = true;
        ms.push(took);
        break;
      }
      if (i > 0) ms.push(took);
    }
  } finally {
    agent.destroy();
  }
  return { ms: ms.sort((a, b) => a - b), cut };
}

/** The status of one GET of `url` once its body is read (a stream: its first event), or 'cut'. */
function get(agent, url, headers, stream) {
  return new Promise((done, fail) => {
    const target = new URL(url);
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent: stream ? undefined : agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
          if (stream && body.includes('\n\n')) {
            req.destroy();
            done(res.statusCode);
          }
        });
        res.on('end', () => done(res.statusCode === 200 || !body ? res.statusCode : `${res.statusCode} ${body.slice(0, 200)}`));
      },
    );
    req.setTimeout(TIMEOUT_MS, () => {
      req.destroy();
      done('cut');
    });
    req.on('error', (error) => (req.destroyed ? undefined : fail(error)));
    req.end();
  });
}

function round(ms) {
  return Number(ms.toFixed(ms < 10 ? 2 : 1));
}
