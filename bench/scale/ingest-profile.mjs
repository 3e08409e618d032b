// Where an ingest's time goes in a database grown by bench/scale.mjs (BENCH_KEEP=1): the service
// started on it, BENCH_INGESTS (3) 20,000-case JUnit reports ingested into new runs of its last project
// (the first of new cases), each one's results/s and CPU (service, PostgreSQL), and PostgreSQL's
// statements by total time over them (pg_stat_statements, which must be preloaded).
//
// Usage: PROFILE_DATABASE=tm_bench_scale_xxxxxx node bench/scale/ingest-profile.mjs
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { operator, startService } from '../support.mjs';
import { ingest, report, topStatements } from './ingests.mjs';
import { NO_SWEEP_TIMER } from './months.mjs';

const INGESTS = Number(process.env.BENCH_INGESTS ?? 3);
const url = new URL(process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${process.env.PROFILE_DATABASE}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
// The measured project: the last of bench/scale.mjs's "Scale N".
const { rows: [project] } = await client.query(
  `SELECT id, organization_id FROM project WHERE name LIKE 'Scale %' ORDER BY length(name) DESC, name DESC LIMIT 1`,
);
const service = await startService({ DATABASE_URL: url.toString(), RATE_LIMIT_PER_MINUTE: '1000000', ...NO_SWEEP_TIMER });
try {
  const { key } = await operator(service.base, 'POST', `/internal/v1/organizations/${project.organization_id}/api-keys`, {
    name: 'profile',
    scopes: ['testruns:create', 'results:submit'],
  });
  // Cases of a package of their own: the first report's are new, as in the bench.
  const pkg = `com.acme.p${randomBytes(3).toString('hex')}`;
  await client.query('SELECT pg_stat_statements_reset()');
  for (let i = 0; i < INGESTS; i++) {
    const done = await ingest({ service, key, project }, report(i, pkg));
    console.log(
      `ingest #${i + 1}: ${done.rate} results/s, ${done.ms.toFixed(0)} ms; CPU service ${done.serviceCpuMs} ms, ` +
        `postgres ${done.postgresCpuMs} ms`,
    );
  }
  console.table(await topStatements(client, process.env.PROFILE_DATABASE, 25));
} finally {
  await service.stop();
  await client.end();
}
