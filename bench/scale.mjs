// Reads and writes at scale (issue 29): a database grown to SCALE_RESULTS results, then the
// reads a console and a pipeline make, timed before and after ANALYZE, and the writes; then the
// oldest month of results dropped by retention.
//
// Growing: projects of 20 runs (one release each) of CASES cases, CASES = min(20,000,
// SCALE_RESULTS / 40), so there are always other releases' runs beside the one measured. Each
// project is the results-intelligence data set (bench/intelligence/seed.mjs, its own PRNG seed)
// loaded with COPY straight into the tables: this bypasses the API (no idempotency, no events,
// no per-batch upserts), which is what makes millions of results take minutes; the rows are the
// ones the service writes, with UUIDv7 run ids. `test_result` and `test_run_case` are
// partitioned by month of run (src/partitions/): the projects' runs are spread over the past
// SPAN_MONTHS (6) months, oldest project first, the measured last one at now, each of the others
// inside one month; the months' partitions are made first by the worker's keeper (run in this
// process, bench/scale/months.mjs), as a deployment's would have been. Nothing is analyzed while
// growing (autovacuum may be off); a CHECKPOINT after it writes back what growing left dirty.
// After the reads and writes below, each month partition's results are counted, and the
// default partitions must be empty (the bench fails otherwise).
//
// With SCALE_MIGRATION=1 the database is grown at the schema before the partitioning
// (migrations up to KeepReleaseSlots1795870000000, the service not migrating and serving the
// API only), then the partitioning migration is run and timed as a deployment runs it
// (`runMigrations`, what dist/migrate.js and the service's start call): seconds, per million
// results, and WAL written. The rest is measured on the migrated database.
//
// Then, over HTTP against the built service (`dist/main.js`), sequential requests on one
// keep-alive connection:
//   1. BENCH_INGESTS (9) 20,000-case JUnit reports ingested into new runs of the last project
//      (results/s, and the CPU of the service and of PostgreSQL), each in turn with the same
//      report ingested into an empty database (just migrated, one project, its own service
//      started with the grown one's): this machine's speed drifts by ±20 % within minutes, so
//      the yardstick is measured beside what it measures; each pair's time and CPU ratio is
//      taken, and the median pair (and the sums) compared;
//   2. p50/p99 of: the release's progress (20 runs), the results list `status=passed` of a
//      seeded run and of a just-ingested run, a case's history (first page, and page 40), the
//      flaky list; first with no statistics, then after ANALYZE; for the progress, also the
//      shared buffers PostgreSQL touched per request (the database's `pg_stat_database`
//      counters, which the machine's load does not change);
//   3. each ingested run moved to `submitted` (min, median and max ms);
//   4. as many more reports ingested into new runs of the measured release, again in
//      turn with the empty database's release.
// Then the oldest month goes through the real retention path: the projects with runs in it get a
// retention (internal API) that expires exactly those runs, the others keep everything, and the
// worker's RetentionSweeper (in this process) sweeps once: the sweep's time, its drop
// transaction's and the lock-and-DROP statements' alone, the WAL written, the database's size
// before and after. One table at the end, with the database's size and bytes per result.
//
// Usage: npm run build && node bench/scale.mjs
// Environment: SCALE_RESULTS (200,000), SCALE_MIGRATION (1: grow before the partitioning, time
// it), BENCH_REQUESTS (60), BENCH_SLOW_REQUESTS (20, for the progress and flaky list),
// BENCH_KEEP (keep the databases, the grown and the empty one), BENCH_STATEMENTS (1: the ingests' statements, from
// pg_stat_statements, which must be in shared_preload_libraries), BENCH_ADMIN_DATABASE_URL (see
// support.mjs).
import { Agent, request } from 'node:http';
import pg from 'pg';
import { seed, seedOptions, sampleCases } from './intelligence/seed.mjs';
import {
  createMonthsSince,
  dropOldestMonth,
  NO_SWEEP_TIMER,
  partitionRows,
  projectEnds,
  reportPartitions,
  startWorker,
} from './scale/months.mjs';
import { ingest, report, topStatements } from './scale/ingests.mjs';
import {
  benchProject,
  createDatabase,
  createDatabaseBefore,
  dropDatabase,
  operator,
  startService,
  viaHttps,
} from './support.mjs';

const SCALE_RESULTS = Number(process.env.SCALE_RESULTS ?? 200_000);
const MIGRATION = process.env.SCALE_MIGRATION === '1';
/** The migration measured with SCALE_MIGRATION=1: the database grows at the schema before it. */
const PARTITIONING = 'PartitionResultsByRunMonth1795880000000';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const SLOW_REQUESTS = Number(process.env.BENCH_SLOW_REQUESTS ?? 20);
const RUNS_PER_RELEASE = 20;
const CASES = Math.min(20_000, Math.floor(SCALE_RESULTS / (2 * RUNS_PER_RELEASE)));
const PROJECTS = Math.max(2, Math.round(SCALE_RESULTS / (RUNS_PER_RELEASE * CASES)));
/**
 * Ingests per side (grown, empty), alternating which goes first. This machine's speed drifts by
 * ±20 % within minutes, so one pair says little: 3 per side gave comparisons 35 points apart
 * from one run to the next at 0.2M. The comparison is each pair's ratio's median (and the sum's).
 */
const INGESTS = Number(process.env.BENCH_INGESTS ?? 9);
/** A deep page of a seeded run's results list: most of the way down. */
const DEEP_OFFSET = Math.floor(CASES * 0.9);
const SCOPES = ['testruns:create', 'testruns:read', 'testruns:update', 'results:submit', 'results:read', 'projects:read'];

const db = MIGRATION ? await createDatabaseBefore('scale', PARTITIONING) : createDatabase('scale');
const serviceEnv = { DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '1000000', ...NO_SWEEP_TIMER };
// Before the partitioning, the service must neither migrate nor run the worker (its partition
// keeper would find no partitioned table).
let service = await startService(MIGRATION ? { ...serviceEnv, MIGRATIONS_RUN: 'false', APP_ROLE: 'api' } : serviceEnv);
// The yardstick for ingest (see below), started with the grown one's service.
const empty = createDatabase('scale_empty');
const emptyService = await startService({ ...serviceEnv, DATABASE_URL: empty.url });
const client = new pg.Client({ connectionString: db.url });
await client.connect();
let worker = null;
try {
  const autovacuum = (await client.query('SHOW autovacuum')).rows[0].autovacuum;
  const { org, key } = await benchProject(service.base, SCOPES, 'Scale 0', 'SCALE0');
  console.log(
    `autovacuum ${autovacuum}; growing ${db.name} to ${PROJECTS} projects × ${RUNS_PER_RELEASE} runs × ${CASES} cases ` +
      `(${PROJECTS * RUNS_PER_RELEASE * CASES} results, COPY)`,
  );
  const growing = Date.now();
  const ends = projectEnds(PROJECTS, RUNS_PER_RELEASE, growing);
  if (!MIGRATION) {
    worker = await startWorker(db.url);
    const made = await createMonthsSince(worker, ends[0] - (RUNS_PER_RELEASE + 3) * 3_600_000, growing);
    console.log(`  ${made} months' partitions made since ${new Date(ends[0]).toISOString().slice(0, 7)}`);
  }
  let last;
  for (let p = 0; p < PROJECTS; p++) {
    const project = await operator(service.base, 'POST', `/internal/v1/organizations/${org.id}/projects`, {
      name: `Scale ${p + 1}`,
      key: `SC${p + 1}`,
    });
    const release = await operator(service.base, 'POST', `/internal/v1/projects/${project.id}/releases`, { name: 'R1' });
    const options = { ...seedOptions({ BENCH_RUNS: RUNS_PER_RELEASE, BENCH_CASES: CASES }), seed: 100 + p, endAt: ends[p] };
    await seed(client, { organizationId: org.id, projectId: project.id, releaseId: release.id }, options);
    last = { project, release, options };
    console.log(
      `  project ${p + 1}/${PROJECTS} loaded, runs ending ${new Date(ends[p]).toISOString().slice(0, 13)}h ` +
        `(${((Date.now() - growing) / 1000).toFixed(0)} s)`,
    );
  }
  const rows = [];
  if (MIGRATION) {
    await service.stop();
    const { runMigrations } = await import('../dist/database/prepare-database.js');
    const lsn = (await client.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
    const started = Date.now();
    const applied = await runMigrations(db.url);
    const seconds = (Date.now() - started) / 1000;
    const wal = (await client.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 AS bytes', [lsn])).rows[0].bytes;
    if (applied.join() !== PARTITIONING) throw new Error(`migrated ${applied.join()}, not ${PARTITIONING} alone`);
    const millions = (PROJECTS * RUNS_PER_RELEASE * CASES) / 1e6;
    console.log(`${PARTITIONING}: ${seconds.toFixed(1)} s (${(seconds / millions).toFixed(1)} s per million results)`);
    rows.push({ measure: 'partitioning migration (s)', 'no statistics': round(seconds), 'after ANALYZE': '' });
    rows.push({ measure: '  per million results (s)', 'no statistics': round(seconds / millions), 'after ANALYZE': '' });
    rows.push({ measure: '  WAL written (bytes per result)', 'no statistics': Math.round(wal / (millions * 1e6)), 'after ANALYZE': '' });
    service = await startService(serviceEnv);
    worker = await startWorker(db.url);
  }
  // Growing wrote gigabytes that the kernel and the checkpointer are still writing back; a
  // deployment of this size has no such backlog, so it is written out before anything is timed.
  const flushing = Date.now();
  await client.query('CHECKPOINT');
  console.log(`CHECKPOINT after growing took ${((Date.now() - flushing) / 1000).toFixed(1)} s`);
  const headers = { ...viaHttps, authorization: `Bearer ${key}` };
  const api = `${service.base}/api/v1`;

  // The yardstick: the same ingests into an empty database (just migrated, one project and its
  // release) with a service of its own, measured in turn with the grown one's (this machine's
  // speed drifts by ±20 % within minutes), and the CPU each used, service and PostgreSQL.
  const emptyTenant = await benchProject(emptyService.base, SCOPES, 'Empty', 'EMPTY');
  const yardstick = {
    service: emptyService,
    key: emptyTenant.key,
    project: emptyTenant.project,
    release: await operator(emptyService.base, 'POST', `/internal/v1/projects/${emptyTenant.project.id}/releases`, { name: 'R1' }),
  };
  const grown = { service, key, project: last.project, release: last.release };
  const ingests = { grown: [], empty: [] };

  // With BENCH_STATEMENTS=1 (and pg_stat_statements preloaded), PostgreSQL's statements of the
  // ingests below, by total time, in each database.
  const statements = process.env.BENCH_STATEMENTS === '1';
  if (statements) {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT pg_stat_statements_reset()');
  }

  // Writes: ingests into new runs of the measured project (not in its release), kept in progress.
  const ingested = [];
  for (let i = 0; i < INGESTS; i++) {
    const [first, second] = i % 2 === 0 ? ['empty', 'grown'] : ['grown', 'empty'];
    for (const side of [first, second]) {
      const done = await ingest(side === 'grown' ? grown : yardstick, report(i));
      ingests[side].push(done);
      if (side === 'grown') ingested.push(done.runId);
    }
    rows.push({
      measure: `ingest 20k JUnit #${i + 1}`,
      'no statistics': withCpu(ingests.grown[i]),
      'after ANALYZE': '',
      'empty database': withCpu(ingests.empty[i]),
    });
  }
  rows.push(versusEmpty('ingest', ingests, 'no statistics'));
  if (statements) {
    for (const name of [db.name, empty.name]) {
      console.log(`the ingests' statements in ${name}:`);
      console.table(await topStatements(client, name));
    }
  }

  const seededRun = (
    await client.query('SELECT id FROM test_run WHERE release_id = $1 ORDER BY created_at LIMIT 1', [last.release.id])
  ).rows[0].id;
  const cases = sampleCases(last.options, 10);
  const reads = [
    {
      name: 'release progress (20 runs)',
      urls: [`${api}/releases/${last.release.id}/progress`],
      count: SLOW_REQUESTS,
      buffers: true,
    },
    { name: 'results status=passed (seeded run)', urls: [`${api}/testruns/${seededRun}/results?status=passed`] },
    { name: 'results status=passed (ingested run)', urls: [`${api}/testruns/${ingested[0]}/results?status=passed`] },
    { name: `results, offset ${DEEP_OFFSET} (seeded run)`, urls: [`${api}/testruns/${seededRun}/results?offset=${DEEP_OFFSET}&limit=25`] },
    { name: "a case's history", urls: [...cases.flaky, ...cases.stable].map((id) => `${api}/testcases/${id}/results?limit=25`) },
    { name: 'flaky list', urls: [`${api}/projects/${last.project.id}/flaky-tests`], count: SLOW_REQUESTS },
  ];
  const timings = new Map();
  for (const phase of ['no statistics', 'after ANALYZE']) {
    if (phase === 'after ANALYZE') {
      const started = Date.now();
      await client.query('ANALYZE');
      console.log(`ANALYZE took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    for (const read of reads) {
      const blocksBefore = read.buffers ? await blocksRead(client) : 0;
      const times = await timeReads(read.urls, headers, read.count ?? REQUESTS);
      timings.set(`${read.name}|${phase}`, times);
      if (read.buffers) {
        // Load-independent: what PostgreSQL read for it (the database is the bench's alone).
        const perRequest = Math.round(((await blocksRead(client)) - blocksBefore) / (read.count + 3));
        timings.set(`${read.name} buffers|${phase}`, perRequest);
      }
      console.log(`  ${phase}: ${read.name}: ${times}`);
    }
  }
  for (const read of reads) {
    rows.push({
      measure: `${read.name} p50/p99 ms`,
      'no statistics': timings.get(`${read.name}|no statistics`),
      'after ANALYZE': timings.get(`${read.name}|after ANALYZE`),
    });
    if (read.buffers) {
      rows.push({
        measure: `${read.name}: PostgreSQL buffers (8 KiB) per request`,
        'no statistics': timings.get(`${read.name} buffers|no statistics`),
        'after ANALYZE': timings.get(`${read.name} buffers|after ANALYZE`),
      });
    }
  }
  const moves = [];
  for (const runId of ingested) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${api}/testruns/${runId}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'submitted' }),
    });
    moves.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.status !== 200) throw new Error(`submit: ${res.status} ${await res.text()}`);
  }
  moves.sort((a, b) => a - b);
  rows.push({
    measure: `move each ingested run to submitted (${moves.length}): min / median / max ms`,
    'no statistics': '',
    'after ANALYZE': [moves[0], moves[Math.floor(moves.length / 2)], moves[moves.length - 1]].map(round).join(' / '),
  });

  // Writes into the measured release (after its reads): each result also keeps the release's
  // slot (`release_slot`); the first report's slots are new there, the next ones' replace them.
  const releaseIngests = { grown: [], empty: [] };
  for (let i = 0; i < INGESTS; i++) {
    const [first, second] = i % 2 === 0 ? ['empty', 'grown'] : ['grown', 'empty'];
    for (const side of [first, second]) releaseIngests[side].push(await ingest(side === 'grown' ? grown : yardstick, report(i), true));
    rows.push({
      measure: `ingest 20k JUnit into the release #${i + 1}`,
      'no statistics': '',
      'after ANALYZE': withCpu(releaseIngests.grown[i]),
      'empty database': withCpu(releaseIngests.empty[i]),
    });
  }
  rows.push(versusEmpty('ingest into the release', releaseIngests, 'after ANALYZE'));

  const { bytes, results } = (
    await client.query(
      `SELECT pg_database_size(current_database())::float8 AS bytes, (SELECT count(*) FROM test_result)::float8 AS results`,
    )
  ).rows[0];
  rows.push({ measure: 'results stored', 'no statistics': '', 'after ANALYZE': results });
  rows.push({ measure: 'bytes per result (whole database)', 'no statistics': '', 'after ANALYZE': Math.round(bytes / results) });
  // Where they are: each table that grows with results, with its indexes and TOAST.
  // A partitioned table's size is its partitions'.
  const tables = await client.query(
    `SELECT relname AS table,
            (CASE WHEN relkind = 'p' THEN (SELECT sum(pg_total_relation_size(t.relid)) FROM pg_partition_tree(c.oid) t)
                  ELSE pg_total_relation_size(c.oid) END)::float8 AS bytes
       FROM pg_class c
      WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace
        AND relname IN ('test_result', 'test_run_case', 'release_slot', 'case_outcomes', 'test_case', 'domain_event')
      ORDER BY bytes DESC`,
  );
  for (const table of tables.rows) {
    rows.push({ measure: `  of which ${table.table}`, 'no statistics': '', 'after ANALYZE': Math.round(table.bytes / results) });
  }

  // Where the results are (counted after the reads, so as not to warm the cache for them).
  if (!reportPartitions(await partitionRows(client))) process.exitCode = 1;

  // Retention: the oldest month dropped whole.
  const dropped = await dropOldestMonth({
    client,
    worker,
    setRetention: (projectId, days) =>
      operator(service.base, 'PATCH', `/internal/v1/projects/${projectId}/retention`, { retention_days: days }),
  });
  console.log(
    `retention: ${dropped.month} (${dropped.results} results of ${dropped.projects} projects kept ${dropped.retentionDays} days) ` +
      `${dropped.left ? 'NOT dropped' : 'dropped'}; sweep ${JSON.stringify(dropped.report)}` +
      (dropped.emptyMonthsDropped.length > 0 ? `, also the empty months ${dropped.emptyMonthsDropped.join(', ')}` : ''),
  );
  if (dropped.left || (await client.query('SELECT count(*)::int AS n FROM test_result')).rows[0].n !== results - dropped.results) {
    console.log('RETENTION DID NOT DROP EXACTLY THE OLDEST MONTH');
    process.exitCode = 1;
  }
  const month = `drop the oldest month (${dropped.month}, ${dropped.results} results)`;
  rows.push({ measure: `${month}: sweep (ms)`, 'no statistics': '', 'after ANALYZE': round(dropped.sweepMs) });
  const transaction = dropped.oldestDropped;
  rows.push({ measure: '  its drop transaction (ms)', 'no statistics': '', 'after ANALYZE': round(transaction?.transactionMs ?? NaN) });
  for (const step of transaction?.steps ?? []) {
    const calls = step.calls > 1 ? ` ×${step.calls}` : '';
    rows.push({ measure: `    ${step.step}${calls} (ms / WAL bytes)`, 'no statistics': '', 'after ANALYZE': `${step.ms} / ${step.walBytes}` });
  }
  rows.push({ measure: '  tables locked, DROP to commit (ms)', 'no statistics': '', 'after ANALYZE': round(transaction?.lockedMs ?? NaN) });
  rows.push({ measure: '  WAL written by the sweep (bytes)', 'no statistics': '', 'after ANALYZE': dropped.walBytes });
  rows.push({ measure: '  database size before (MB)', 'no statistics': '', 'after ANALYZE': round(dropped.sizeBefore / 2 ** 20) });
  rows.push({ measure: '  database size after (MB)', 'no statistics': '', 'after ANALYZE': round(dropped.sizeAfter / 2 ** 20) });
  console.log(`grown and measured in ${((Date.now() - growing) / 1000).toFixed(0)} s`);
  console.table(rows);
} finally {
  await worker?.close();
  await client.end();
  await Promise.all([service.stop(), emptyService.stop()]);
  if (process.env.BENCH_KEEP) console.log(`databases kept: ${db.name}, ${empty.name} (the empty one)`);
  else await Promise.all([dropDatabase(db.name), dropDatabase(empty.name)]);
}

/**
 * The database's shared-buffer hits and reads so far (`pg_stat_database`). A backend reports
 * its counts when it goes idle, at most once a second, else within 10 s: so wait 11 s first.
 */
async function blocksRead(client) {
  await new Promise((done) => setTimeout(done, 11_000));
  await client.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await client.query(
    'SELECT (blks_hit + blks_read)::float8 AS blocks FROM pg_stat_database WHERE datname = current_database()',
  );
  return rows[0].blocks;
}

/** `count` sequential GETs over `urls` in turn (a warm-up of each first): "p50 / p99" in ms. */
async function timeReads(urls, headers, count) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const url of urls.slice(0, 3)) await timed(agent, url, headers);
    const ms = [];
    for (let i = 0; i < count; i++) ms.push(await timed(agent, urls[i % urls.length], headers));
    ms.sort((a, b) => a - b);
    const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
    return `${round(at(0.5))} / ${round(at(0.99))}`;
  } finally {
    agent.destroy();
  }
}

function timed(agent, url, headers) {
  return new Promise((done, fail) => {
    const target = new URL(url);
    const started = process.hrtime.bigint();
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) fail(new Error(`${url}: ${res.statusCode} ${body.slice(0, 300)}`));
          else done(Number(process.hrtime.bigint() - started) / 1e6);
        });
      },
    );
    req.on('error', fail);
    req.end();
  });
}

/**
 * A row comparing the grown database's ingests with the empty one's, time and CPU: the median of
 * the pairs' ratios (each pair ran back to back, so it shares the machine's speed of the moment)
 * and, after it, the ratio of the sums.
 */
function versusEmpty(what, { grown, empty }, column) {
  const percent = (ratio) => `${((ratio - 1) * 100).toFixed(1)} %`;
  const sum = (list, key) => list.reduce((total, one) => total + one[key], 0);
  const median = (key) => {
    const ratios = grown.map((one, i) => one[key] / empty[i][key]).sort((a, b) => a - b);
    const middle = Math.floor(ratios.length / 2);
    return ratios.length % 2 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2;
  };
  return {
    measure: `  ${what}: grown's time / CPU vs empty's, median pair (sums)`,
    [column]:
      `${percent(median('ms'))} / ${percent(median('cpuMs'))} ` +
      `(${percent(sum(grown, 'ms') / sum(empty, 'ms'))} / ${percent(sum(grown, 'cpuMs') / sum(empty, 'cpuMs'))})`,
    'empty database': `${Math.round(sum(empty, 'ms'))} ms / ${sum(empty, 'cpuMs')} ms CPU`,
  };
}

/** An ingest's rate, and the CPU it cost the service and PostgreSQL. */
function withCpu({ rate, serviceCpuMs, postgresCpuMs }) {
  return `${rate}/s, ${serviceCpuMs} + ${postgresCpuMs} ms CPU`;
}

function round(ms) {
  return Number(ms.toFixed(ms < 10 ? 2 : 1));
}
