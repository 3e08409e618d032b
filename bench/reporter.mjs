// The pipeline reporter (tm-report) against the same upload with plain curl (issue 17):
// 50 JUnit reports × 2,000 distinct cases (2 % failing) from 8 shards into one run, then the
// run completed.
//   (A) tm-report: 8 `submit` processes in parallel, each with its share of the files, the same
//       --run-name and --pipeline-id (so they share the run), then one `complete` process;
//   (B) curl: the run created with one curl call, 8 parallel workers each POSTing its files
//       one curl process per file (`--data-binary @file` to /results/ingest?test_run_id=…),
//       then the run completed with a curl PATCH.
// Each variant runs on a fresh project (so no variant finds the other's cases), alternating
// A, B, A, B, A, B (BENCH_ROUNDS rounds, 3 by default) after an unmeasured warm-up of each,
// each after a CHECKPOINT; medians are reported, with the CPU time of the client processes
// (on a CI runner the shards run elsewhere; here they share the cores with the service). After every
// variant the run is checked through the API and SQL: exactly 100,000 results, counts exact,
// status completed. Target: the reporter's wall time within 10 % of curl's.
// Then what a pipeline's reporting costs of the monthly quota (issue 28), by the organization's
// calls_this_period, with its wall time: a 4-shard GitHub Actions pipeline (4 `submit`
// processes of 2 small JUnit reports each, the same GITHUB_RUN_ID, then `complete --gate`;
// the project named by id, then by key; target ≤ 12 calls) and one `submit` of 650 small Surefire reports (target ≤ 5 ingest calls).
// BENCH_CALLS_ONLY=1 runs only these.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import {
  benchProject,
  cpuMs,
  operator,
  createDatabase,
  dropDatabase,
  startService,
  viaHttps,
} from './support.mjs';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 50);
const CASES = Number(process.env.BENCH_CASES ?? 2000);
const SHARDS = Number(process.env.BENCH_SHARDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FAIL_EVERY = 50; // 2 % failing
const TOTAL = REPORTS * CASES;
const FAILED = REPORTS * Math.ceil(CASES / FAIL_EVERY);
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
  console.error('bench:reporter needs curl on the PATH');
  process.exit(1);
}

/** Runs a command; resolves with its stdout, rejects with its exit code and stderr. */
function run(file, args, options = {}) {
  return new Promise((done, fail) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, out, err) =>
      error
        ? fail(new Error(`${file} ${args.slice(0, 3).join(' ')}…: ${error.code} ${err}`))
        : done(out),
    );
  });
}

// 50 reports of 20 suites × 100 cases each, every case distinct across the reports.
const dir = mkdtempSync(join(tmpdir(), 'tm-bench-reporter-'));
const files = [];
for (let f = 0; f < REPORTS; f++) {
  const perSuite = CASES / 20;
  const suites = Array.from({ length: 20 }, (_, s) => {
    const cases = Array.from({ length: perSuite }, (_, c) => {
      const i = s * perSuite + c;
      return i % FAIL_EVERY === 0
        ? `    <testcase classname="bench.Report${f}.Suite${s}" name="test${i}" time="0.012"><failure type="AssertionError" message="expected &lt;${i}&gt; but was &lt;0&gt;">at bench.Report${f}.Suite${s}.test${i}(Suite${s}.java:${i})</failure></testcase>`
        : `    <testcase classname="bench.Report${f}.Suite${s}" name="test${i}" time="0.003"/>`;
    }).join('\n');
    return `  <testsuite name="bench.Report${f}.Suite${s}" tests="${perSuite}">\n${cases}\n  </testsuite>`;
  }).join('\n');
  const file = join(dir, `report-${String(f).padStart(2, '0')}.xml`);
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites}\n</testsuites>\n`,
  );
  files.push(file);
}
const shardFiles = Array.from({ length: SHARDS }, (_, k) =>
  files.filter((_, f) => f % SHARDS === k),
);

const db = createDatabase('reporter');
const service = await startService({
  DATABASE_URL: db.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'warn',
});
const client = new pg.Client({ connectionString: db.url });
await client.connect();

const seconds = (started) => Number(process.hrtime.bigint() - started) / 1e9;

/** CPU seconds (user + system) of this process's finished children (the shards, the curls). */
function childrenCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, USER_HZ
}

/** (A) tm-report: 8 shard processes, then `complete`. Returns the run id and wall seconds. */
async function reporterVariant(key, project, round, shards = shardFiles) {
  const env = {
    PATH: process.env.PATH ?? '',
    TM_URL: `${service.base}/api/v1`,
    TM_API_KEY: key,
    TM_EXTRA_HEADERS: JSON.stringify(viaHttps),
  };
  const common = [
    '--project',
    project.key,
    '--run-name',
    `bench ${round}`,
    '--pipeline-id',
    `bench-pipeline-${round}`,
  ];
  const started = process.hrtime.bigint();
  const outs = await Promise.all(
    shards.map((mine) =>
      run(process.execPath, [CLI, 'submit', ...mine, ...common, '--json'], { cwd: dir, env }),
    ),
  );
  await run(process.execPath, [CLI, 'complete', ...common], { cwd: dir, env });
  const wall = seconds(started);
  const runIds = new Set(outs.map((out) => JSON.parse(out).run.id));
  if (runIds.size !== 1) throw new Error(`the shards landed in ${runIds.size} runs`);
  return { runId: [...runIds][0], wall };
}

/** (B) plain curl: create the run, 8 workers POST their files, PATCH complete. */
async function curlVariant(key, project, round, shards = shardFiles) {
  const headers = [
    '-H',
    `authorization: Bearer ${key}`,
    ...Object.entries(viaHttps).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
  ];
  const curl = async (args, expect) => {
    const out = await run('curl', ['-sS', '-w', '\n%{http_code}', ...headers, ...args]);
    const at = out.lastIndexOf('\n');
    const status = Number(out.slice(at + 1));
    if (status !== expect) throw new Error(`curl ${args.at(-1)}: ${status} ${out.slice(0, 300)}`);
    return JSON.parse(out.slice(0, at));
  };
  const started = process.hrtime.bigint();
  const testRun = await curl(
    [
      '-X',
      'POST',
      '-H',
      'content-type: application/json',
      '--data',
      JSON.stringify({ project_id: project.id, name: `bench ${round}` }),
      `${service.base}/api/v1/testruns`,
    ],
    201,
  );
  await Promise.all(
    shards.map(async (mine) => {
      for (const file of mine) {
        const ingested = await curl(
          [
            '-X',
            'POST',
            '-H',
            'content-type: application/xml',
            '--data-binary',
            `@${file}`,
            `${service.base}/api/v1/results/ingest?test_run_id=${testRun.id}`,
          ],
          201,
        );
        if (ingested.accepted !== CASES) throw new Error(`${file}: ${ingested.accepted} accepted`);
      }
    }),
  );
  await curl(
    [
      '-X',
      'PATCH',
      '-H',
      'content-type: application/json',
      '--data',
      '{"status":"completed"}',
      `${service.base}/api/v1/testruns/${testRun.id}`,
    ],
    200,
  );
  return { runId: testRun.id, wall: seconds(started) };
}

/** The run holds exactly TOTAL results with exact counts, through the API and in SQL. */
async function verify(key, runId) {
  const res = await fetch(`${service.base}/api/v1/testruns/${runId}`, {
    headers: { ...viaHttps, authorization: `Bearer ${key}` },
  });
  const testRun = await res.json();
  const { total, passed, failed } = testRun.counts ?? {};
  const rows = (
    await client.query(
      'SELECT status, count(*)::int AS n FROM test_result WHERE test_run_id = $1 GROUP BY status',
      [runId],
    )
  ).rows;
  const sql = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  const sqlTotal = rows.reduce((sum, r) => sum + r.n, 0);
  const ok =
    res.status === 200 &&
    testRun.status === 'completed' &&
    total === TOTAL &&
    passed === TOTAL - FAILED &&
    failed === FAILED &&
    sqlTotal === TOTAL &&
    sql.passed === TOTAL - FAILED &&
    sql.failed === FAILED;
  if (!ok) {
    throw new Error(
      `run ${runId}: status ${testRun.status}, API counts ${JSON.stringify(testRun.counts)}, SQL ${JSON.stringify(sql)}; expected ${TOTAL} (${FAILED} failed)`,
    );
  }
  return `${total} results (${passed} passed, ${failed} failed), completed`;
}

/** calls_this_period of the organization, read by the operator (not counted). */
const callsOf = async (orgId) =>
  (await operator(service.base, 'GET', `/internal/v1/organizations/${orgId}`)).calls_this_period;

/** A small JUnit report of `suite`: 3 cases, the first failing when `failing`. */
const smallReport = (suite, failing = false) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="${suite}" tests="3" hostname="runner">\n${[
    'adds',
    'subtracts',
    'divides',
  ]
    .map((name, i) =>
      failing && i === 0
        ? `  <testcase classname="${suite}" name="${name}" time="0.001"><failure message="expected 2">at ${suite}</failure></testcase>`
        : `  <testcase classname="${suite}" name="${name}" time="0.001"/>`,
    )
    .join('\n')}\n</testsuite>\n`;

/** The calls and wall time of a 4-shard pipeline with `complete --gate`, and of 650 Surefire reports. */
async function quotaScenarios() {
  const rows = [];
  const env = (key, extra = {}) => ({
    PATH: process.env.PATH ?? '',
    TM_URL: `${service.base}/api/v1`,
    TM_API_KEY: key,
    TM_EXTRA_HEADERS: JSON.stringify(viaHttps),
    ...extra,
  });
  // The project named by id (no lookup), then by key (each process looks it up once).
  for (const projectBy of ['id', 'key']) {
    const { org, key, project } = await benchProject(
      service.base,
      [...SCOPES, 'builds:create'],
      `Quota shards by ${projectBy}`,
      projectBy === 'id' ? 'QSI' : 'QSK',
    );
    const github = {
      GITHUB_ACTIONS: 'true',
      GITHUB_RUN_ID: `quota-${projectBy}-${Date.now()}`,
      GITHUB_RUN_NUMBER: '7',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_SHA: '9fceb02d0ae598e95dc970b74767f19372d61af8',
      GITHUB_REF_NAME: 'main',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/web-shop',
    };
    const shards = [0, 1, 2, 3].map((shard) =>
      ['unit', 'api'].map((kind) => {
        const file = join(dir, `quota-shards-${projectBy}`, `${shard}`, `${kind}.xml`);
        mkdirSync(join(dir, `quota-shards-${projectBy}`, `${shard}`), { recursive: true });
        writeFileSync(file, smallReport(`quota.Shard${shard}.${kind}`, kind === 'unit'));
        return file;
      }),
    );
    const common = ['--project', project[projectBy], '--run-name', 'quota shards'];
    const before = await callsOf(org.id);
    const started = process.hrtime.bigint();
    await Promise.all(
      shards.map((mine) =>
        run(process.execPath, [CLI, 'submit', ...mine, ...common], {
          cwd: dir,
          env: env(key, github),
        }),
      ),
    );
    const submitted = (await callsOf(org.id)) - before;
    // Exit 1: the gate fails (the shards' failures are new).
    await run(process.execPath, [CLI, 'complete', ...common, '--gate'], {
      cwd: dir,
      env: env(key, github),
    }).catch(() => undefined);
    const wall = seconds(started);
    rows.push({
      scenario: `4-shard GitHub pipeline, complete --gate, project by ${projectBy}`,
      calls: (await callsOf(org.id)) - before,
      'of them to submit': submitted,
      'wall s': Number(wall.toFixed(2)),
      // The 4 processes start together: a shard that registers the build while another's
      // registration is in flight polls for its answer, a call more (409 idempotency_key_in_use).
      target: projectBy === 'id' ? '≤ 12 calls + polls' : '≤ 12 calls + 5 lookups + polls',
    });
  }
  {
    const { org, key, project } = await benchProject(service.base, SCOPES, 'Quota surefire', 'QF');
    const folder = join(dir, 'quota-surefire');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 650; i++) {
      writeFileSync(
        join(folder, `TEST-com.acme.Class${i}Test.xml`),
        smallReport(`com.acme.Class${i}Test`),
      );
    }
    const before = await callsOf(org.id);
    const started = process.hrtime.bigint();
    const out = await run(
      process.execPath,
      [
        CLI,
        'submit',
        'quota-surefire/*.xml',
        '--project',
        project.key,
        '--run-name',
        'surefire',
        '--json',
      ],
      { cwd: dir, env: env(key) },
    );
    const wall = seconds(started);
    const { uploaded } = JSON.parse(out);
    rows.push({
      scenario: `650 Surefire reports, one submit (${uploaded.length} files)`,
      calls: (await callsOf(org.id)) - before,
      'of them to submit': (await callsOf(org.id)) - before,
      'wall s': Number(wall.toFixed(2)),
      target: '≤ 5 ingest calls',
    });
  }
  console.table(rows);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The timing rounds: the reporter against curl. */
async function timingRounds() {
  const variants = {
    A: {
      name: `(A) tm-report, ${SHARDS} shard processes + complete`,
      fn: reporterVariant,
      walls: [],
      cpus: [],
      serviceCpus: [],
    },
    B: {
      name: `(B) plain curl, create + ${SHARDS} workers + PATCH`,
      fn: curlVariant,
      walls: [],
      cpus: [],
      serviceCpus: [],
    },
  };
  // Warm-up, not measured: each variant once with one report per shard (the service's JIT,
  // PostgreSQL's caches), so the first measured variant pays no more than the others.
  const warmShards = shardFiles.map((mine) => mine.slice(0, 1));
  for (const id of ['A', 'B']) {
    const { key, project } = await benchProject(service.base, SCOPES, `Warm ${id}`, `W${id}`);
    await variants[id].fn(key, project, `warm${id}`, warmShards);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const id of ['A', 'B']) {
      const v = variants[id];
      const label = `${id}${round + 1}`;
      const { key, project } = await benchProject(
        service.base,
        SCOPES,
        `Bench ${label}`,
        `B${label}`,
      );
      await client.query('CHECKPOINT');
      const cpuBefore = childrenCpu();
      const serviceBefore = cpuMs(service.child.pid).service;
      const { runId, wall } = await v.fn(key, project, label);
      const cpu = childrenCpu() - cpuBefore;
      const serviceCpu = (cpuMs(service.child.pid).service - serviceBefore) / 1000;
      v.walls.push(wall);
      v.cpus.push(cpu);
      v.serviceCpus.push(serviceCpu);
      console.log(
        `${label}: ${wall.toFixed(2)} s, ${Math.round(TOTAL / wall)} results/s, client processes ${cpu.toFixed(2)} CPU s, service ${serviceCpu.toFixed(2)} CPU s; verified: ${await verify(key, runId)}`,
      );
    }
  }
  const a = median(variants.A.walls);
  const b = median(variants.B.walls);
  const overhead = (a - b) / b;
  console.table([
    {
      variant: variants.A.name,
      'wall s (median)': Number(a.toFixed(2)),
      runs: variants.A.walls.map((w) => w.toFixed(2)).join(', '),
      'results/s': Math.round(TOTAL / a),
      'client CPU s': Number(median(variants.A.cpus).toFixed(2)),
      'service CPU s': Number(median(variants.A.serviceCpus).toFixed(2)),
      'overhead vs B': `${(overhead * 100).toFixed(1)} %`,
    },
    {
      variant: variants.B.name,
      'wall s (median)': Number(b.toFixed(2)),
      runs: variants.B.walls.map((w) => w.toFixed(2)).join(', '),
      'results/s': Math.round(TOTAL / b),
      'client CPU s': Number(median(variants.B.cpus).toFixed(2)),
      'service CPU s': Number(median(variants.B.serviceCpus).toFixed(2)),
      'overhead vs B': '—',
    },
  ]);
  console.log(
    `${REPORTS} reports × ${CASES} cases (${FAILED} failing) = ${TOTAL} results per run. Reporter overhead ${(overhead * 100).toFixed(1)} % of wall time (target < 10 %): ${overhead < 0.1 ? 'PASS' : 'FAIL'}; client CPU ${median(variants.A.cpus).toFixed(2)} s (9 node processes) against curl's ${median(variants.B.cpus).toFixed(2)} s (52 processes)`,
  );
}

try {
  await quotaScenarios();
  if (process.env.BENCH_CALLS_ONLY !== '1') await timingRounds();
} finally {
  await client.end();
  await service.stop();
  await dropDatabase(db.name);
  rmSync(dir, { recursive: true, force: true });
}
