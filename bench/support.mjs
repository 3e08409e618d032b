// Shared pieces of the benchmarks: a scratch database, the built service as a child process,
// and autocannon runs. Every benchmark prints its figures; nothing here is mocked.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { Agent, request } from 'node:http';
import { get as httpsGet } from 'node:https';
import autocannon from 'autocannon';
import pg from 'pg';

export const ADMIN_DATABASE_URL =
  process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const ADMIN_TOKEN = 'bench-operator-token-0123456789';

export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

/** A new database, migrated by the built migration entry point. */
export function createDatabase(label) {
  const name = `tm_bench_${label}_${randomBytes(3).toString('hex')}`;
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  execFileSync(process.execPath, [resolve('dist/migrate.js')], {
    env: { ...process.env, DATABASE_URL: url.toString() },
    cwd: tmpdir(),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { name, url: url.toString() };
}

/**
 * A new database migrated up to, not including, the migration named `before` (with the built
 * migrations and data source): the schema a deployment had before it, to grow and then migrate.
 */
export async function createDatabaseBefore(label, before) {
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await import('../dist/database/data-source-options.js');
  const { MIGRATIONS } = await import('../dist/database/migrations/index.js');
  const { ensureDatabaseExists } = await import('../dist/database/prepare-database.js');
  const index = MIGRATIONS.findIndex((migration) => migration.name === before);
  if (index < 0) throw new Error(`no migration ${before}`);
  const name = `tm_bench_${label}_${randomBytes(3).toString('hex')}`;
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  await ensureDatabaseExists(url.toString());
  const dataSource = new DataSource({
    ...dataSourceOptions(url.toString()),
    migrations: MIGRATIONS.slice(0, index),
    extra: { max: 1 },
  });
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  return { name, url: url.toString() };
}

export async function dropDatabase(name) {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  await client.end();
}

/** The node options the service runs with (`npm run start:prod`, as the Dockerfile runs it). */
const PRODUCTION_NODE_ARGS = JSON.parse(readFileSync(resolve('package.json'), 'utf8'))
  .scripts['start:prod'].split(' ')
  .filter((word) => word.startsWith('--'));

/** Starts `dist/main.js` with the given settings and waits until it listens. */
export async function startService(env, nodeArgs = []) {
  // A PORT given (e.g. to name it in PUBLIC_URL beforehand) is used, else a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the service.
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...PRODUCTION_NODE_ARGS, ...extra, ...nodeArgs, resolve('dist/main.js')], {
    cwd: tmpdir(),
    env: {
      ...process.env,
      PORT: String(port),
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: `tmbench_${randomBytes(3).toString('hex')}`,
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const tls = env.TLS_SELF_SIGNED === 'true';
  const base = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if (await healthy(base, tls)) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) };
}

/** Whether `/healthz` answers 200 (over TLS with the self-signed certificate when `tls`). */
async function healthy(base, tls) {
  if (!tls) return (await fetch(`${base}/healthz`)).ok;
  return new Promise((done, fail) => {
    httpsGet(`${base}/healthz`, { rejectUnauthorized: false }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    }).on('error', fail);
  });
}

/** Requests through the loopback "proxy": the service treats them as HTTPS. */
export const viaHttps = { 'x-forwarded-proto': 'https' };

export async function operator(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...viaHttps, authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** An Enterprise organization without a practical monthly limit, and a key of `scopes`. */
export async function benchTenant(base, scopes) {
  const org = await operator(base, 'POST', '/internal/v1/organizations', {
    name: 'bench',
    plan: 'enterprise',
    monthly_call_limit: 1_000_000_000,
  });
  const { key } = await operator(base, 'POST', `/internal/v1/organizations/${org.id}/api-keys`, {
    name: 'bench',
    scopes,
  });
  return { org, key };
}

/** `benchTenant` with one project of `name` and `projectKey` in its organization. */
export async function benchProject(base, scopes, name, projectKey) {
  const { org, key } = await benchTenant(base, scopes);
  const project = await operator(base, 'POST', `/internal/v1/organizations/${org.id}/projects`, {
    name,
    key: projectKey,
  });
  return { org, key, project };
}

/** Samples the RSS of process `pid` every `everyMs` until stopped: its peak so far, in bytes. */
export function sampleRss(pid, everyMs) {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), everyMs);
  return {
    get peak() {
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}

export function cannon(options) {
  return new Promise((done, fail) => {
    autocannon(options, (error, result) => (error ? fail(error) : done(result)));
  });
}

/**
 * CPU time (ms, user + system) used so far by the process `pid` and by all PostgreSQL server
 * processes on this machine, from /proc: a benchmark takes the difference over a phase.
 */
export function cpuMs(pid) {
  const ticksOf = (p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  let postgres = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') postgres += ticksOf(entry);
    } catch {
      // gone meanwhile
    }
  }
  const msPerTick = 1000 / 100; // USER_HZ
  return { service: ticksOf(pid) * msPerTick, postgres: postgres * msPerTick };
}

export function rss(pid) {
  try {
    const status = execFileSync('cat', [`/proc/${pid}/status`]).toString();
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Precise latency of sequential requests over one keep-alive connection (autocannon reports
 * whole milliseconds): returns percentiles in milliseconds with microsecond resolution.
 */
export async function sampleLatency(url, headers, count = 3000) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const once = () =>
    new Promise((done, fail) => {
      const started = process.hrtime.bigint();
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode >= 300) fail(new Error(`${url}: ${res.statusCode}`));
            else done(Number(process.hrtime.bigint() - started) / 1e6);
          });
        },
      );
      req.on('error', fail);
      req.end();
    });
  for (let i = 0; i < 200; i++) await once();
  const samples = [];
  for (let i = 0; i < count; i++) samples.push(await once());
  agent.destroy();
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

/**
 * A JUnit report of `cases` cases in `suites` suites (classes `${pkg}.${prefix}N`, N from 0),
 * ~2 % failed (which ones moves with `round`) and ~1 % skipped: the benches' report.
 */
export function junitReport({ cases, suites = 20, round = 0, pkg = 'com.acme', prefix = 'Suite' }) {
  const perSuite = cases / suites;
  const all = Array.from({ length: suites }, (_, s) => {
    const lines = Array.from({ length: perSuite }, (_, i) => {
      const open = `<testcase classname="${pkg}.${prefix}${s}" name="test${i}" time="0.004"`;
      if ((i + round) % 50 === 0)
        return `${open}><failure message="expected &lt;${i % 3}&gt;" type="java.lang.AssertionError">at ${prefix}${s}.java:${i % 7}</failure></testcase>`;
      if (i % 100 === 7) return `${open}><skipped/></testcase>`;
      return `${open}/>`;
    }).join('\n');
    return `<testsuite name="${pkg}.${prefix}${s}" tests="${perSuite}">\n${lines}\n</testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${all.join('\n')}\n</testsuites>\n`;
}
