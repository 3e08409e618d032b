// Event-to-delivery latency and throughput of webhooks: one worker process, a receiver on
// loopback, 10,000 events written to the outbox (as the API's transactions write them, with
// NOTIFY) at a steady rate. Latency is receipt time minus the event's created_at.
// Targets (issue 6): p50 < 100 ms, ≥ 500 deliveries/s.
import { createServer } from 'node:http';
import pg from 'pg';
import { createDatabase, dropDatabase, freePort, sampleRss, startService } from './support.mjs';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 600); // events per second offered (above the 500/s target)
const TICK_MS = 50;

const db = createDatabase('webhooks');
const latencies = [];
let firstReceipt = 0;
let lastReceipt = 0;
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const now = Date.now();
    const event = JSON.parse(body);
    latencies.push(now - Date.parse(event.created_at));
    firstReceipt ||= now;
    lastReceipt = now;
    res.writeHead(204).end();
  });
});
const port = await freePort();
await new Promise((resolve) => receiver.listen(port, '127.0.0.1', resolve));

const client = new pg.Client({ connectionString: db.url });
await client.connect();
const [{ id: orgId }] = (
  await client.query(`INSERT INTO organization (name, plan, subscription_started_at) VALUES ('bench', 'enterprise', now()) RETURNING id`)
).rows;
await client.query(
  `INSERT INTO webhook_subscription (organization_id, url, events, secret) VALUES ($1, $2, '{*}', $3)`,
  [orgId, `http://127.0.0.1:${port}/hook`, `whsec_${Buffer.alloc(32, 7).toString('base64')}`],
);

const worker = await startService({
  DATABASE_URL: db.url,
  APP_ROLE: 'worker',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
});
const memory = sampleRss(worker.child.pid, 200);
try {
  const started = Date.now();
  let written = 0;
  while (written < EVENTS) {
    const due = Math.min(EVENTS, Math.floor(((Date.now() - started) / 1000) * RATE) + 1);
    const count = due - written;
    if (count > 0) {
      await client.query(
        `INSERT INTO domain_event (organization_id, type, data)
         SELECT $1, 'build.created.v1', jsonb_build_object('n', n) FROM generate_series($2::int, $3::int) n;
         `.trim(),
        [orgId, written, due - 1],
      );
      await client.query(`SELECT pg_notify('domain_events', '')`);
      written = due;
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  const deadline = Date.now() + 120_000;
  while (latencies.length < EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (latencies.length < EVENTS) {
    // What became of the missing ones: their deliveries' status and attempt log.
    const { rows: events } = await client.query(`SELECT count(*)::int AS n FROM domain_event WHERE relayed_at IS NULL`);
    const { rows: pending } = await client.query(
      `SELECT status, attempts, next_attempt_at, attempt_log FROM webhook_delivery WHERE status <> 'succeeded' LIMIT 5`,
    );
    console.error(`events not relayed: ${events[0].n}; deliveries not succeeded:`, JSON.stringify(pending, null, 1));
    throw new Error(`only ${latencies.length} of ${EVENTS} delivered`);
  }

  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const seconds = (lastReceipt - started) / 1000;
  const rate = EVENTS / seconds;
  console.table([
    {
      events: EVENTS,
      'offered events/s': RATE,
      'deliveries/s': Math.round(rate),
      'p50 ms': at(0.5),
      'p90 ms': at(0.9),
      'p99 ms': at(0.99),
      'max ms': sorted[sorted.length - 1],
      'worker peak RSS MB': Math.round(memory.peak / 1024 / 1024),
    },
  ]);
  console.log(`p50 < 100 ms: ${at(0.5) < 100 ? 'met' : 'NOT met'}; ≥ 500 deliveries/s: ${rate >= 500 ? 'met' : 'NOT met'}`);
  const { rows } = await client.query(`SELECT status, count(*)::int AS n FROM webhook_delivery GROUP BY status`);
  console.log('deliveries by status:', Object.fromEntries(rows.map((r) => [r.status, r.n])));
} finally {
  memory.stop();
  await worker.stop();
  await client.end();
  receiver.close();
  await dropDatabase(db.name);
}
