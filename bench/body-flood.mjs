// Memory under a flood of large bodies, with the production heap flags (`npm run start:prod`):
// (a) 16 bodies of 10 MiB (one result whose `defects` holds 5 M zeros) at once from a key
//     that may only read runs; (b) 40 bodies of 223,097 tiny results at once from a key that
//     may submit; (c) 16 valid 5,000-result batches of 9.7 MiB at once, which must all be stored.
// Each flood gets a fresh service process; the script prints, per flood, the answers' statuses,
// whether the process survived, its RSS peak and the p99 of `/healthz` while the flood lasted.
// (a2) and (a3) send (a)'s zeros and 3.3 M empty objects from the submitting key, so they are
// parsed (within the budget) before the items are refused.
// Every request and probe has a deadline, so the script stops by itself (about a minute).
import { request } from 'node:http';
import pg from 'pg';
import {
  benchTenant,
  createDatabase,
  dropDatabase,
  operator,
  rss,
  sampleRss,
  startService,
  viaHttps,
} from './support.mjs';

const REQUEST_DEADLINE_MS = 60_000;
const PROBE_DEADLINE_MS = 5_000;
const MIB = 1024 * 1024;

const zeros = Buffer.from(
  `{"results":[{"automation_id":"x","status":"passed","defects":[${'0,'.repeat(5_000_000 - 1)}0]}]}`,
);
const empties = Buffer.from(
  `{"results":[{"automation_id":"x","status":"passed","defects":[${'{},'.repeat(3_300_000 - 1)}{}]}]}`,
);
const tinyItem = '{"automation_id":"xxxxxxx","status":"passed"}';
const tiny = Buffer.from(`{"results":[${Array(223_097).fill(tinyItem).join(',')}]}`);
const validBatch = (n) =>
  Buffer.from(
    JSON.stringify({
      results: Array.from({ length: 5000 }, (_, i) => ({
        automation_id: `flood.batch${n}.case${i}`,
        status: i % 10 === 0 ? 'failed' : 'passed',
        duration_ms: 12,
        message: `assertion ${i} `.padEnd(1900, 'x'),
      })),
    }),
  );

/** Sends `body` once; resolves with the status, or with the way the connection failed. */
function send(base, path, key, body) {
  const url = new URL(path, base);
  return new Promise((done) => {
    let settled = false;
    const finish = (outcome) => {
      if (!settled) done(outcome);
      settled = true;
    };
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        timeout: REQUEST_DEADLINE_MS,
        headers: {
          ...viaHttps,
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': body.length,
        },
      },
      (res) => {
        res.resume();
        finish(String(res.statusCode));
      },
    );
    req.on('timeout', () => {
      finish('timeout');
      req.destroy();
    });
    // After an answer, the server may close while the rest of the body is still being sent.
    req.on('error', (error) => finish(error.code ?? 'error'));
    req.end(body);
  });
}

/** Probes `/healthz` one request after another until stopped: the latencies, in ms. */
function probeHealth(base) {
  const latencies = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(PROBE_DEADLINE_MS) });
      } catch {
        // A probe that fails or times out counts as its whole wait.
      }
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      latencies.sort((a, b) => a - b);
      return latencies[Math.min(latencies.length - 1, Math.floor(0.99 * latencies.length))] ?? 0;
    },
  };
}

async function flood(db, label, bodies, send) {
  const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '1000000' });
  const idle = rss(service.child.pid);
  const memory = sampleRss(service.child.pid, 50);
  try {
    const prepared = await send.prepare(service.base);
    const health = probeHealth(service.base);
    const started = performance.now();
    const outcomes = await Promise.all(
      bodies.map((body) => send.one(service.base, prepared, body)),
    );
    const seconds = (performance.now() - started) / 1000;
    const p99 = await health.stop();
    memory.stop();
    const histogram = {};
    for (const outcome of outcomes) histogram[outcome] = (histogram[outcome] ?? 0) + 1;
    const alive = service.child.exitCode === null && service.child.signalCode === null;
    const allowed = outcomes.every((o) => send.expect(o));
    console.log(
      `${label}: ${seconds.toFixed(1)} s; answers ${JSON.stringify(histogram)}; ` +
        `process ${alive ? 'alive' : `DIED (${service.child.exitCode ?? service.child.signalCode})`}; ` +
        `RSS ${(idle / MIB).toFixed(0)} MiB idle, peak ${(memory.peak / MIB).toFixed(0)} MiB; ` +
        `/healthz p99 ${p99.toFixed(0)} ms; ` +
        `targets (answers, alive, RSS < 450 MiB, p99 < 500 ms): ` +
        (allowed && alive && memory.peak < 450 * MIB && p99 < 500 ? 'met' : 'MISSED'),
    );
    return prepared;
  } finally {
    memory.stop();
    if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
  }
}

const clientError = (outcome) => /^(4\d\d|503)$/.test(outcome);

const db = createDatabase('flood');
const client = new pg.Client({ connectionString: db.url });
await client.connect();
try {
  /** A run in the organization of a key that may submit, and one that may only read. */
  const prepare = async (base) => {
    const { org, key } = await benchTenant(base, ['testruns:create', 'results:submit']);
    const reader = await operator(base, 'POST', `/internal/v1/organizations/${org.id}/api-keys`, {
      name: 'reader',
      scopes: ['testruns:read'],
    });
    const project = await operator(base, 'POST', `/internal/v1/organizations/${org.id}/projects`, {
      name: 'Flood',
      key: `FL${Math.random().toString(36).slice(2, 6).toUpperCase()}`,
    });
    const res = await fetch(`${base}/api/v1/testruns`, {
      method: 'POST',
      headers: { ...viaHttps, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: project.id, name: 'flood' }),
    });
    const run = await res.json();
    return { key, reader: reader.key, run };
  };
  const toResults = (keyOf) => ({
    prepare,
    one: (base, { run, ...keys }, body) =>
      send(base, `/api/v1/testruns/${run.id}/results`, keyOf(keys), body),
  });

  await flood(
    db,
    `(a) 16 × ${(zeros.length / MIB).toFixed(1)} MiB of zeros, read-only key`,
    Array(16).fill(zeros),
    {
      ...toResults((keys) => keys.reader),
      expect: clientError,
    },
  );
  await flood(
    db,
    `(b) 40 × ${(tiny.length / MIB).toFixed(1)} MiB of 223,097 tiny results, submitting key`,
    Array(40).fill(tiny),
    {
      ...toResults((keys) => keys.key),
      expect: clientError,
    },
  );
  // Beyond the issue's three: the same zeros from a key that may submit (parsed, one at a time),
  // and the costliest JSON per byte, empty objects, also parsed.
  await flood(
    db,
    `(a2) 16 × ${(zeros.length / MIB).toFixed(1)} MiB of zeros, submitting key`,
    Array(16).fill(zeros),
    {
      ...toResults((keys) => keys.key),
      expect: clientError,
    },
  );
  await flood(
    db,
    `(a3) 16 × ${(empties.length / MIB).toFixed(1)} MiB of empty objects, submitting key`,
    Array(16).fill(empties),
    {
      ...toResults((keys) => keys.key),
      expect: clientError,
    },
  );
  const batches = Array.from({ length: 16 }, (_, n) => validBatch(n));
  const { run } = await flood(
    db,
    `(c) 16 valid batches × ${(batches[0].length / MIB).toFixed(1)} MiB (5,000 results)`,
    batches,
    {
      ...toResults((keys) => keys.key),
      expect: (outcome) => outcome === '201',
    },
  );
  const { rows } = await client.query(
    'SELECT count(*)::int AS n FROM test_result WHERE test_run_id = $1',
    [run.id],
  );
  console.log(`(c) ${rows[0].n} of ${16 * 5000} results stored`);
} finally {
  await client.end();
  await dropDatabase(db.name);
}
