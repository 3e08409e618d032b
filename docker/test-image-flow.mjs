#!/usr/bin/env node
// The outside half of docker/test-image.sh: drives the api and worker containers it started
// as a client and an operator would, and checks what production relies on. Settings come from
// the environment test-image.sh sets (API, WORKER, ADMIN_TOKEN, DATABASE_URL, the container
// names). Each check prints one line; the first that fails throws and ends the run (exit 1).
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const API = env('API');
const WORKER = env('WORKER');
const ADMIN_TOKEN = env('ADMIN_TOKEN');
const API_CONTAINER = env('API_CONTAINER');
const WORKER_CONTAINER = env('WORKER_CONTAINER');
const GRACE_SECONDS = Number(process.env.GRACE_SECONDS ?? 30);
const SIGTERM_REPORTS = Number(process.env.SIGTERM_REPORTS ?? 3);
const SIGTERM_CASES = Number(process.env.SIGTERM_CASES ?? 30_000);

const podman = (...args) =>
  execFileSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const podmanAsync = promisify(execFile);
const ok = (text) => console.log(`ok   ${text}`);
function check(condition, text, detail = '') {
  if (!condition) throw new Error(`${text}${detail ? `: ${detail}` : ''}`);
  ok(text);
}

/**
 * One HTTP request on a connection of its own (agent: false). A reused keep-alive connection
 * can be closed by the server's idle timeout just as a request is sent on it ("other side
 * closed"), which would make this test fail for a reason that is not the image's.
 */
function http(method, url, { headers = {}, body } = {}) {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let json = null;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON
        }
        done({ status: res.statusCode, headers: res.headers, json, text });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

// The api sits behind a TLS-terminating proxy in production; the containers run on the host
// network, so this process is a loopback peer, which TRUST_PROXY trusts.
const viaHttps = { 'x-forwarded-proto': 'https' };
function call(method, path, { key = null, body, type = 'application/json', headers = {} } = {}) {
  const payload =
    body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return http(method, `${API}${path}`, {
    headers: {
      ...viaHttps,
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(payload === undefined
        ? {}
        : { 'content-type': type, 'content-length': Buffer.byteLength(payload) }),
      ...headers,
    },
    body: payload,
  });
}

const junit = (pkg, cases, failEvery = 0) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n' +
  `<testsuite name="${pkg}" tests="${cases}">\n` +
  Array.from({ length: cases }, (_, i) =>
    failEvery && i % failEvery === 0
      ? `<testcase classname="${pkg}.Suite${i % 97}" name="test${i}" time="0.010"><failure message="expected 1 got ${i}">at Suite.java:${i}</failure></testcase>`
      : `<testcase classname="${pkg}.Suite${i % 97}" name="test${i}" time="0.002"/>`,
  ).join('\n') +
  '\n</testsuite>\n</testsuites>\n';

const db = new pg.Client({ connectionString: env('DATABASE_URL') });
await db.connect();
const receiver = { server: null, requests: [] };
try {
  // --- probes, plain HTTP, the image's HEALTHCHECK ---------------------------------------------
  for (const [role, base] of [
    ['api', API],
    ['worker', WORKER],
  ]) {
    for (const path of ['/healthz', '/readyz']) {
      const res = await http('GET', `${base}${path}`);
      check(res.status === 200, `${role} ${path} answers 200 over plain HTTP`, `got ${res.status}`);
    }
  }
  const plain = await http('GET', `${API}/api/v1/organizations`);
  const plainBody = plain.json ?? {};
  check(
    plain.status === 403 && JSON.stringify(plainBody).includes('https_required'),
    'api refuses plain HTTP on /api/v1 (403 https_required)',
    `got ${plain.status} ${JSON.stringify(plainBody)}`,
  );
  const healthcheck = JSON.parse(
    podman('image', 'inspect', '-f', '{{json .Config.Healthcheck}}', env('IMAGE')),
  );
  check(
    Array.isArray(healthcheck?.Test) && healthcheck.Test[0] === 'CMD',
    'the image keeps its HEALTHCHECK (--format docker)',
  );
  for (const container of [API_CONTAINER, WORKER_CONTAINER]) {
    podman('exec', container, ...healthcheck.Test.slice(1));
    ok(`${container}: the HEALTHCHECK command passes inside the container`);
  }

  // --- how the process runs -----------------------------------------------------------------------
  for (const container of [API_CONTAINER, WORKER_CONTAINER]) {
    const pid = podman('inspect', '-f', '{{.State.Pid}}', container);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const uids = /^Uid:\s+(.*)$/m.exec(status)[1].split(/\s+/);
    const gids = /^Gid:\s+(.*)$/m.exec(status)[1].split(/\s+/);
    const capEff = /^CapEff:\s+(\S+)$/m.exec(status)[1];
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .join(' ');
    check(
      uids.every((u) => u === '1000') && gids.every((g) => g === '1000'),
      `${container}: PID 1 (${command}) runs as uid 1000, gid 1000`,
      `Uid ${uids.join(' ')}, Gid ${gids.join(' ')}`,
    );
    check(/^0+$/.test(capEff), `${container}: no effective capabilities`, `CapEff ${capEff}`);
    let wrote = true;
    try {
      execFileSync('podman', ['exec', container, 'sh', '-c', 'echo x > /app/written-by-test'], {
        stdio: 'ignore',
      });
    } catch {
      wrote = false;
    }
    check(!wrote, `${container}: the root filesystem is read-only`);
  }

  // --- an organization and a key with the CLI inside the container ------------------------------
  const cli = (...args) => podman('exec', API_CONTAINER, 'node', 'dist/cli.js', ...args);
  const orgId = cli('org:create', '--name', 'Image test', '--plan', 'pro', '--quiet');
  check(/^[0-9a-f-]{36}$/.test(orgId), `CLI in the container created organization ${orgId}`, orgId);
  const key = cli(
    'key:create',
    '--org',
    orgId,
    '--name',
    'image test',
    '--quiet',
    '--scopes',
    'testruns:read,testruns:create,results:read,results:submit,projects:read,webhooks:manage',
  );
  const orgs = await call('GET', '/api/v1/organizations', { key });
  check(
    orgs.status === 200 && orgs.json?.data?.[0]?.id === orgId,
    'the CLI-made key reads its organization through the api',
  );
  const project = await call('POST', `/internal/v1/organizations/${orgId}/projects`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    body: { name: 'Image', key: 'IMG' },
  });
  check(
    project.status === 201,
    'operator API (ADMIN_TOKEN) created a project',
    `${project.status} ${project.text}`,
  );
  const projectId = project.json.id;

  // --- a webhook delivered by the worker to a loopback receiver ---------------------------------
  receiver.server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      receiver.requests.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise((done) => receiver.server.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${receiver.server.address().port}/hook`;
  const webhook = await call('POST', '/api/v1/webhooks', {
    key,
    body: { url: hookUrl, events: ['testrun.created.v1'], description: 'image test' },
  });
  check(
    webhook.status === 201 && webhook.json.secret,
    `subscribed ${hookUrl} to testrun.created.v1`,
    `${webhook.status} ${webhook.text}`,
  );

  // --- a JUnit report ---------------------------------------------------------------------------
  const report = junit('com.image', 200, 20);
  const ingest = await call(
    'POST',
    `/api/v1/results/ingest?project_id=${projectId}&run_name=image-smoke`,
    {
      key,
      body: report,
      type: 'application/xml',
    },
  );
  check(
    ingest.status === 201 && ingest.json.accepted === 200 && ingest.json.created_test_cases === 200,
    'a JUnit report of 200 cases was ingested (201, 200 accepted)',
    `${ingest.status} ${ingest.text.slice(0, 300)}`,
  );
  const runId = ingest.json.test_run_id;
  const run = await call('GET', `/api/v1/testruns/${runId}`, { key });
  check(run.status === 200, `run ${runId} reads back`, `${run.status} ${run.text.slice(0, 200)}`);
  const failures = await call('GET', `/api/v1/testruns/${runId}/failures`, { key });
  check(
    failures.status === 200,
    'its failures group (GET /testruns/{id}/failures)',
    `${failures.status}`,
  );

  // --- an attachment: uploaded through the service's signed link, read back -----------------
  // The filesystem store (the image's default) writes into the volume api and worker share.
  const [firstResult] = (await call('GET', `/api/v1/testruns/${runId}/results?limit=1`, { key }))
    .json.data;
  const log = Array.from({ length: 4000 }, (_, i) => `line ${i}: the image keeps evidence\n`).join(
    '',
  );
  const logItem = {
    test_case_id: firstResult.test_case_id,
    name: 'console.log',
    content_type: 'text/plain',
    size: Buffer.byteLength(log),
    sha256: createHash('sha256').update(log).digest('hex'),
  };
  const described = await call('POST', `/api/v1/testruns/${runId}/attachments`, {
    key,
    body: { attachments: [logItem] },
  });
  const attachment = described.json?.data?.[0];
  check(
    described.status === 201 && attachment?.status === 'pending' && attachment.upload,
    'an attachment is described (201, pending, with an upload link)',
    `${described.status} ${described.text.slice(0, 300)}`,
  );
  const uploadUrl = new URL(attachment.upload.url);
  const uploaded = await http('PUT', `${API}${uploadUrl.pathname}${uploadUrl.search}`, {
    headers: {
      ...viaHttps,
      ...attachment.upload.headers,
      'content-length': Buffer.byteLength(log),
    },
    body: log,
  });
  check(
    uploaded.status === 200 && uploaded.json?.status === 'stored',
    `its ${logItem.size} bytes are stored through the signed link, without a key`,
    `${uploaded.status} ${uploaded.text.slice(0, 300)}`,
  );
  const stored = `${env('ATTACHMENT_DIR')}/${orgId}/${logItem.sha256}-${logItem.size}`;
  for (const container of [API_CONTAINER, WORKER_CONTAINER]) {
    podman('exec', container, 'test', '-f', stored);
    ok(`${container}: the content is in the shared attachments volume (${stored})`);
  }
  const redirect = await call('GET', `/api/v1/attachments/${attachment.id}/content`, { key });
  check(
    redirect.status === 302 && typeof redirect.headers.location === 'string',
    'GET /attachments/{id}/content redirects to a signed link',
    `${redirect.status} ${redirect.text.slice(0, 200)}`,
  );
  const downloadUrl = new URL(redirect.headers.location);
  const downloaded = await http('GET', `${API}${downloadUrl.pathname}${downloadUrl.search}`, {
    headers: viaHttps,
  });
  check(
    downloaded.status === 200 &&
      downloaded.text === log &&
      downloaded.headers['x-content-type-options'] === 'nosniff' &&
      downloaded.headers['content-security-policy'] === 'sandbox',
    'the signed link serves the same bytes, with nosniff and a sandbox CSP',
    `${downloaded.status} ${downloaded.text.length} bytes, ${JSON.stringify(downloaded.headers)}`,
  );

  const deadline = Date.now() + 30_000;
  while (receiver.requests.length === 0 && Date.now() < deadline) await sleep(200);
  check(receiver.requests.length > 0, 'the worker delivered the webhook to the loopback receiver');
  const delivered = receiver.requests[0];
  const event = new Webhook(webhook.json.secret).verify(delivered.body, delivered.headers);
  check(
    event.type === 'testrun.created.v1' && JSON.stringify(event).includes(runId),
    `the delivery is signed with the subscription's secret and names the run (${event.type})`,
  );
  const apiRole = podman('exec', API_CONTAINER, 'printenv', 'APP_ROLE');
  check(apiRole === 'api', "the api container runs APP_ROLE=api (queues are the worker's alone)");
  // The worker records the attempt once the receiver has answered: wait for it.
  let deliveries;
  for (let tries = 0; tries < 50; tries += 1) {
    deliveries = await call('GET', `/api/v1/webhooks/${webhook.json.id}/deliveries`, { key });
    if (deliveries.json?.data?.some((d) => d.status === 'succeeded')) break;
    await sleep(200);
  }
  check(
    deliveries.status === 200 && deliveries.json.data.some((d) => d.status === 'succeeded'),
    'the delivery is logged as succeeded (GET /webhooks/{id}/deliveries)',
    deliveries.text.slice(0, 300),
  );

  // --- SIGTERM during ingests: nothing accepted is lost, exit 0 within the grace period --------
  const reports = Array.from({ length: SIGTERM_REPORTS }, (_, i) =>
    junit(`com.drain${i}`, SIGTERM_CASES),
  );
  const sent = reports.map((body, i) => {
    const started = Date.now();
    return call('POST', `/api/v1/results/ingest?project_id=${projectId}&run_name=drain-${i}`, {
      key,
      body,
      type: 'application/xml',
    }).then(
      (res) => ({ i, ...res, finished: Date.now(), started }),
      (error) => ({
        i,
        status: 0,
        error: String(error),
        finished: Date.now(),
        started,
      }),
    );
  });
  // Signal once the api is storing a report: PostgreSQL shows its COPY (the sweeper's and the
  // relay's statements are no COPY). Past the deadline, signal anyway: the checks below then
  // fail if nothing was in flight.
  const inFlightDeadline = Date.now() + 20_000;
  for (;;) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND state = 'active' AND query ILIKE '%COPY %FROM STDIN%'`,
    );
    if (rows[0].n > 0 || Date.now() > inFlightDeadline) break;
    await sleep(20);
  }
  const signalled = Date.now();
  podman('kill', '--signal', 'TERM', API_CONTAINER);
  podman('kill', '--signal', 'TERM', WORKER_CONTAINER);
  const exits = await Promise.all(
    [API_CONTAINER, WORKER_CONTAINER].map(async (container) => {
      const { stdout } = await podmanAsync('podman', ['wait', container]);
      return { container, code: Number(stdout.trim()), seconds: (Date.now() - signalled) / 1000 };
    }),
  );
  const answers = await Promise.all(sent);
  for (const { container, code, seconds } of exits) {
    check(
      code === 0 && seconds <= GRACE_SECONDS,
      `${container}: SIGTERM -> exit ${code} after ${seconds.toFixed(1)} s (grace ${GRACE_SECONDS} s)`,
      `exit ${code} after ${seconds.toFixed(1)} s`,
    );
  }
  let inFlight = 0;
  for (const answer of answers) {
    const name = `drain-${answer.i}`;
    const { rows } = await db.query(
      `SELECT r.id, (SELECT count(*)::int FROM test_result x WHERE x.test_run_id = r.id) AS results
         FROM test_run r WHERE r.project_id = $1 AND r.name = $2`,
      [projectId, name],
    );
    const stored = rows.reduce((n, row) => n + row.results, 0);
    if (answer.status === 201) {
      if (answer.finished > signalled) inFlight += 1;
      check(
        answer.json.accepted === SIGTERM_CASES && stored === SIGTERM_CASES,
        `${name}: answered 201 (${answer.finished > signalled ? `${answer.finished - signalled} ms after SIGTERM` : 'before SIGTERM'}), ${stored} of ${answer.json.accepted} accepted results stored`,
        `accepted ${answer.json.accepted}, stored ${stored}`,
      );
    } else {
      // Refused (503 while draining) or cut off: the client knows it was not taken, and none of
      // it may be half-stored.
      check(
        stored === 0,
        `${name}: not accepted (${answer.status || answer.error}), nothing stored`,
        `${stored} results stored`,
      );
    }
  }
  check(
    inFlight > 0,
    `${inFlight} ingest(s) were in flight at SIGTERM and finished during the drain`,
  );
} finally {
  receiver.server?.close();
  await db.end();
}
