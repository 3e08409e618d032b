// Where an ingest's time goes in a database grown by bench/scale.mjs (BENCH_KEEP=1): the service
// started on it, INGESTS 20,000-case JUnit reports ingested into new runs of its last project
// (the first of new cases), each one's results/s and CPU (service, PostgreSQL), and PostgreSQL's
// statements by total time over them (pg_stat_statements, which must be preloaded).
//
// Usage: PROFILE_DATABASE=tm_bench_scale_xxxxxx node bench/scale/ingest-profile.mjs
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { cpuMs, operator, startService, viaHttps } from '../support.mjs';
import { NO_SWEEP_TIMER } from './months.mjs';

const INGESTS = Number(process.env.INGESTS ?? 3);
const url = new URL(process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${process.env.PROFILE_DATABASE}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
const { rows: [project] } = await client.query(
  `SELECT p.id, p.organization_id FROM project p WHERE p.name LIKE 'Scale %'
   ORDER BY length(p.name) DESC, p.name DESC LIMIT 1`,
);
const service = await startService({ DATABASE_URL: url.toString(), RATE_LIMIT_PER_MINUTE: '1000000', ...NO_SWEEP_TIMER });
try {
  const { key } = await operator(service.base, 'POST', `/internal/v1/organizations/${project.organization_id}/api-keys`, {
    name: 'profile',
    scopes: ['testruns:create', 'results:submit'],
  });
  const tag = randomBytes(3).toString('hex');
  await client.query('SELECT pg_stat_statements_reset()');
  for (let i = 0; i < INGESTS; i++) {
    const cpu = cpuMs(service.child.pid);
    const started = process.hrtime.bigint();
    const res = await fetch(`${service.base}/api/v1/results/ingest?project_id=${project.id}&run_name=profile`, {
      method: 'POST',
      headers: { ...viaHttps, authorization: `Bearer ${key}`, 'content-type': 'application/xml' },
      body: report(tag, i),
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.status !== 201) throw new Error(`ingest: ${res.status} ${await res.text()}`);
    const after = cpuMs(service.child.pid);
    console.log(
      `ingest #${i + 1}: ${Math.round(20_000 / (ms / 1000))} results/s, ${ms.toFixed(0)} ms; CPU service ` +
        `${after.service - cpu.service} ms, postgres ${after.postgres - cpu.postgres} ms`,
    );
  }
  const { rows } = await client.query(
    `SELECT round(total_exec_time::numeric, 1) AS ms, calls, rows, shared_blks_hit AS hit, shared_blks_read AS read,
            shared_blks_dirtied AS dirtied, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
     FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY total_exec_time DESC LIMIT 25`,
  );
  console.table(rows);
} finally {
  await service.stop();
  await client.end();
}

function report(tag, round) {
  const perSuite = 1000;
  const suites = Array.from({ length: 20 }, (_, s) => {
    const cases = Array.from({ length: perSuite }, (_, i) => {
      const open = `<testcase classname="com.acme.P${tag}.Scale${s}" name="test${i}" time="0.004"`;
      if ((i + round) % 50 === 0) return `${open}><failure message="expected" type="AssertionError">at Scale${s}.java:${i % 7}</failure></testcase>`;
      if (i % 100 === 7) return `${open}><skipped/></testcase>`;
      return `${open}/>`;
    }).join('\n');
    return `<testsuite name="com.acme.Scale${s}" tests="${perSuite}">\n${cases}\n</testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}
