// Slow headers over TLS (slowloris): BENCH_CONNECTIONS (6,000) TLS connections from one address
// (loopback, a direct client: TRUST_PROXY=false) to one service process run as
// `npm run start:prod` runs it, each sending the start of a request and never the end of its
// headers. Prints the service's RSS idle and at its peak, how many connections it refused at
// once, and how long it held the others before closing them; then checks it still answers.
// Stops by itself within BENCH_SECONDS (110) of the flood's start.
import { connect } from 'node:tls';
import { get as httpsGet } from 'node:https';
import { createDatabase, dropDatabase, rss, sampleRss, startService } from './support.mjs';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 6_000);
const DEADLINE_S = Number(process.env.BENCH_SECONDS ?? 110);
/** Handshakes under way at once (more only overflow the listen backlog). */
const OPENING_AT_ONCE = 200;
const PARTIAL_HEADERS = 'GET /api/v1/organizations HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Opens one slow connection; resolves once it is held (headers begun) or refused. */
function slowConnection(port, started, results) {
  return new Promise((opened) => {
    const entry = { held: false, heldAt: 0, closedAt: 0 };
    results.push(entry);
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false });
    socket.on('secureConnect', () => {
      socket.write(PARTIAL_HEADERS);
      entry.held = true;
      entry.heldAt = performance.now() - started;
      opened();
    });
    socket.on('data', () => {}); // an answer (408) before the close is fine
    socket.on('error', () => {});
    socket.on('close', () => {
      entry.closedAt = performance.now() - started;
      opened();
    });
  });
}

const db = createDatabase('slowloris');
const service = await startService({
  DATABASE_URL: db.url,
  TLS_SELF_SIGNED: 'true',
  TRUST_PROXY: 'false',
  LOG_LEVEL: 'warn',
});
const port = Number(new URL(service.base).port);
try {
  await sleep(2_000);
  const idle = rss(service.child.pid);
  const memory = sampleRss(service.child.pid, 100);
  const started = performance.now();
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: OPENING_AT_ONCE }, async () => {
      while (next < CONNECTIONS && performance.now() - started < DEADLINE_S * 1000) {
        next++;
        await slowConnection(port, started, results);
      }
    }),
  );
  const openedAfter = (performance.now() - started) / 1000;
  while (results.some((r) => r.closedAt === 0) && performance.now() - started < DEADLINE_S * 1000) {
    await sleep(200);
  }
  memory.stop();
  const held = results.filter((r) => r.held);
  const stillOpen = results.filter((r) => r.closedAt === 0).length;
  const heldFor = held
    .filter((r) => r.closedAt > 0)
    .map((r) => (r.closedAt - r.heldAt) / 1000)
    .sort((a, b) => a - b);
  const at = (q) => (heldFor.length ? heldFor[Math.min(heldFor.length - 1, Math.floor(q * heldFor.length))] : NaN);
  const lastClose = Math.max(0, ...results.map((r) => r.closedAt)) / 1000;
  console.log(
    `${results.length} TLS connections with partial headers from one address, opened within ${openedAfter.toFixed(1)} s: ` +
      `${held.length} held, ${results.length - held.length} refused at once`,
  );
  console.log(
    `RSS: ${mb(idle)} idle, peak ${mb(memory.peak)} (+${mb(memory.peak - idle)}); ` +
      `held connections closed by the service after p50 ${at(0.5).toFixed(1)} s, max ${at(1).toFixed(1)} s; ` +
      `last closed ${lastClose.toFixed(1)} s after the flood began; ` +
      (stillOpen === 0 ? 'none left open' : `${stillOpen} STILL OPEN after ${DEADLINE_S} s`),
  );
  const status = await new Promise((done) =>
    httpsGet(`${service.base}/healthz`, { rejectUnauthorized: false }, (res) => {
      res.resume();
      done(res.statusCode);
    }).on('error', (error) => done(error.message)),
  );
  console.log(`GET /healthz afterwards: ${status}`);
} finally {
  await service.stop();
  await dropDatabase(db.name);
}
// Connections the service left open would keep this process alive.
process.exit(0);
