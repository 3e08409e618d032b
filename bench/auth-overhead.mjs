// Cost of authentication plus both rate limits: GET /api/v1/organizations (key lookup,
// per-minute limiter, monthly quota upsert, scope check) against GET /healthz (same HTTP
// pipeline, no auth), measured in one run against the built service on the real PostgreSQL.
// Target (issue 3): the added p50 latency is at most 1.5 ms.
import { benchTenant, cannon, createDatabase, dropDatabase, sampleLatency, startService, viaHttps } from './support.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const db = createDatabase('auth');
const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '1000000' });
try {
  const { key } = await benchTenant(service.base, ['builds:read']);
  const targets = {
    healthz: { url: `${service.base}/healthz` },
    organizations: {
      url: `${service.base}/api/v1/organizations`,
      headers: { ...viaHttps, authorization: `Bearer ${key}` },
    },
  };

  const results = {};
  for (const [name, target] of Object.entries(targets)) {
    await cannon({ ...target, connections: CONNECTIONS, duration: 2 }); // warm-up
    const loaded = await cannon({ ...target, connections: CONNECTIONS, duration: DURATION });
    if (loaded.non2xx > 0) throw new Error(`${name}: non-2xx responses`);
    const single = await sampleLatency(target.url, target.headers ?? {});
    results[name] = { loaded, single };
  }

  const row = (name) => {
    const { loaded, single } = results[name];
    return {
      endpoint: name,
      'req/s': Math.round(loaded.requests.average),
      'p50 ms (sequential)': single.p50.toFixed(3),
      'p99 ms (sequential)': single.p99.toFixed(3),
      [`p50 ms (${CONNECTIONS} conn)`]: loaded.latency.p50,
    };
  };
  console.table([row('healthz'), row('organizations')]);
  const ratio = results.organizations.loaded.requests.average / results.healthz.loaded.requests.average;
  const overhead = results.organizations.single.p50 - results.healthz.single.p50;
  console.log(`rate ratio organizations/healthz: ${ratio.toFixed(3)}`);
  console.log(
    `auth + limits overhead at p50: ${overhead.toFixed(3)} ms (target ≤ 1.5 ms): ${overhead <= 1.5 ? 'met' : 'NOT met'}`,
  );
} finally {
  await service.stop();
  await dropDatabase(db.name);
}
