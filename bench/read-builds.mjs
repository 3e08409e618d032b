// GET /api/v1/builds?limit=25 over an organization with 100,000 builds, against a bare
// Express JSON handler serving the same shape from memory, in one run.
// Targets (issue 4): p99 < 50 ms, and ≥ 50 % of the bare handler's request rate.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { benchProject, cannon, createDatabase, dropDatabase, freePort, operator, startService, viaHttps } from './support.mjs';

const BUILDS = Number(process.env.BENCH_BUILDS ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const db = createDatabase('builds');
const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '1000000' });
const barePort = await freePort();
const bare = spawn(process.execPath, [resolve('bench/bare-express.mjs'), String(barePort)], { stdio: 'ignore' });
try {
  const { org, key, project } = await benchProject(service.base, ['builds:read'], 'Web shop', 'WEB');
  const release = await operator(service.base, 'POST', `/internal/v1/projects/${project.id}/releases`, { name: 'R1' });

  // Seed: one build a minute going back; every 20th still waits in the queue.
  const seeded = Date.now();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(
    `INSERT INTO build (organization_id, project_id, release_id, name, build_number, commit_sha, branch, repo_url,
                        status, source, queue_position, created_at, updated_at)
     SELECT $1, $2, CASE WHEN i % 20 = 0 THEN NULL ELSE $3::uuid END,
            'web-shop main #' || i, i::text, md5(i::text), CASE WHEN i % 3 = 0 THEN 'develop' ELSE 'main' END,
            'https://github.com/acme/web-shop',
            CASE WHEN i % 20 = 0 THEN 'planned' ELSE 'assigned' END::build_status, 'api',
            CASE WHEN i % 20 = 0 THEN i / 20 END,
            now() - (($4 - i) || ' minutes')::interval, now() - (($4 - i) || ' minutes')::interval
       FROM generate_series(1, $4) AS i`,
    [org.id, project.id, release.id, BUILDS],
  );
  await client.query('ANALYZE build');
  await client.end();
  console.log(`seeded ${BUILDS} builds in ${Date.now() - seeded} ms`);

  const builds = {
    url: `${service.base}/api/v1/builds?limit=25`,
    headers: { ...viaHttps, authorization: `Bearer ${key}` },
  };
  const check = await fetch(builds.url, { headers: builds.headers });
  const page = await check.json();
  if (check.status !== 200 || page.pagination.total !== BUILDS) throw new Error(`unexpected page: ${check.status}`);

  // /healthz runs the service's whole HTTP pipeline (middleware, router, guard, filters) with no
  // key and no database: the ceiling of any route of this service on this machine.
  const targets = {
    'bare express': { url: `http://127.0.0.1:${barePort}/builds` },
    'GET /healthz (pipeline only)': { url: `${service.base}/healthz`, headers: viaHttps },
    'GET /builds': builds,
  };
  const results = {};
  for (const [name, target] of Object.entries(targets)) {
    await cannon({ ...target, connections: CONNECTIONS, duration: 2 });
    const result = await cannon({ ...target, connections: CONNECTIONS, duration: DURATION });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    results[name] = result;
  }
  console.table(
    Object.entries(results).map(([name, r]) => ({
      endpoint: name,
      'req/s': Math.round(r.requests.average),
      'p50 ms': r.latency.p50,
      'p99 ms': r.latency.p99,
      'max ms': r.latency.max,
    })),
  );
  const ratio = results['GET /builds'].requests.average / results['bare express'].requests.average;
  const p99 = results['GET /builds'].latency.p99;
  console.log(`p99 of GET /builds: ${p99} ms (target < 50 ms): ${p99 < 50 ? 'met' : 'NOT met'}`);
  console.log(`rate ratio GET /builds / bare express: ${ratio.toFixed(3)} (target ≥ 0.5): ${ratio >= 0.5 ? 'met' : 'NOT met'}`);
  const ceiling = results['GET /healthz (pipeline only)'].requests.average / results['bare express'].requests.average;
  console.log(`rate ratio GET /healthz / bare express: ${ceiling.toFixed(3)} (the pipeline's own ceiling)`);
} finally {
  bare.kill();
  await service.stop();
  await dropDatabase(db.name);
}
