// Memory of uploads to the service's own signed link (CONTRACT §15, filesystem store), with
// the production heap flags (`npm run start:prod`): (a) one 256 MiB attachment, (b) eight
// different 256 MiB attachments at once. The bytes are made on the fly (never held here
// either), hashed once to describe them, then streamed to the link. The script prints each
// phase's wall time, throughput, and the service's RSS before, at its peak, and the growth;
// if the service exits during the run, its exit code and signal (a SIGKILL with nothing on
// stderr is the kernel's OOM killer: `dmesg`).
// Measured 2026-11-26 on the shared 2-core machine (load average 11–13), `npm run
// bench:attachments`: before chunks were freed once on disk (`freeChunk`), one upload +56 to
// +65 MiB, eight at once +42 to +69 MiB (Node's HTTP parser copies each body chunk into a
// buffer of its own, which V8 collects only once ~64 MB of them have piled up); after, one
// upload +2.4 MiB, eight at once +1.3 MiB (8 × 200 in 9.9 s, 207 MiB/s).
// A request must arrive within 120 s (REQUEST_TIMEOUT_MS), i.e. at 2.2 MiB/s or more per
// 256 MiB upload: on a machine too busy for that, uploads answer 408 (BENCH_MIB sets a smaller size).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  benchProject,
  createDatabase,
  dropDatabase,
  rss,
  sampleRss,
  startService,
  viaHttps,
} from './support.mjs';

const MIB = 1024 * 1024;
/** BENCH_MIB sets a smaller size, e.g. on a machine too busy to send 256 MiB within the request timeout. */
const SIZE = Number(process.env.BENCH_MIB ?? 256) * MIB;
const CHUNK = 64 * 1024;

/** `size` bytes made from `seed`, chunk by chunk. */
function bytesOf(seed, size) {
  let sent = 0;
  const block = createHash('sha512').update(String(seed)).digest();
  const chunk = Buffer.alloc(CHUNK);
  for (let i = 0; i < CHUNK; i += block.length) block.copy(chunk, i);
  return Readable.from(
    (function* () {
      while (sent < size) {
        const n = Math.min(CHUNK, size - sent);
        chunk.writeUInt32BE(sent / CHUNK, 0);
        sent += n;
        yield Buffer.from(chunk.subarray(0, n));
      }
    })(),
  );
}

async function sha256Of(seed, size) {
  const hash = createHash('sha256');
  for await (const chunk of bytesOf(seed, size)) hash.update(chunk);
  return hash.digest('hex');
}

async function api(base, key, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...viaHttps, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

function put(url, headers, body, size) {
  const target = new URL(url);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: 'PUT',
        headers: { ...viaHttps, ...headers, 'content-length': size },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode));
      },
    );
    // The service may answer (and close) before the whole body is sent.
    req.on('error', (error) => (error.code === 'EPIPE' ? undefined : fail(error)));
    body.pipe(req);
  });
}

/** Rejects if the service exits before `work` settles, naming its exit code and signal. */
function whileServiceRuns(child, work) {
  let onExit;
  const exited = new Promise((_, fail) => {
    onExit = (code, signal) =>
      fail(new Error(`the service exited during the benchmark: code ${code}, signal ${signal}`));
    child.once('exit', onExit);
  });
  return Promise.race([work, exited]).finally(() => child.off('exit', onExit));
}

async function phase(label, base, child, key, runId, seeds) {
  const pid = child.pid;
  const items = [];
  for (const seed of seeds) {
    items.push({
      automation_id: 'bench.upload',
      name: `video-${seed}.webm`,
      content_type: 'video/webm',
      size: SIZE,
      sha256: await sha256Of(seed, SIZE),
    });
  }
  const { data } = await api(base, key, 'POST', `/api/v1/testruns/${runId}/attachments`, {
    attachments: items,
  });
  const before = rss(pid);
  const peak = sampleRss(pid, 50);
  const started = performance.now();
  const statuses = await whileServiceRuns(
    child,
    Promise.all(
      data.map((a, i) => put(a.upload.url, a.upload.headers, bytesOf(seeds[i], SIZE), SIZE)),
    ),
  ).finally(() => peak.stop());
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${label} (${SIZE / MIB} MiB each): ${statuses.join(',')} in ${seconds.toFixed(1)} s ` +
      `(${((SIZE * seeds.length) / MIB / seconds).toFixed(0)} MiB/s); service RSS ` +
      `${(before / MIB).toFixed(1)} MiB before, peak ${(peak.peak / MIB).toFixed(1)} MiB, ` +
      `growth +${((peak.peak - before) / MIB).toFixed(1)} MiB`,
  );
}

const db = createDatabase('attachments');
const dir = mkdtempSync(join(tmpdir(), 'tm-bench-attachments-'));
const service = await startService({ DATABASE_URL: db.url, ATTACHMENT_DIR: dir });
try {
  // On a busy machine the service may take longer to listen than `startService` waits.
  for (let i = 0; i < 600 && !(await fetch(`${service.base}/healthz`).then((r) => r.ok, () => false)); i++) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const { key, project } = await benchProject(
    service.base,
    ['testruns:create', 'results:submit'],
    'Uploads',
    'UPL',
  );
  const run = await api(service.base, key, 'POST', '/api/v1/testruns', {
    project_id: project.id,
    name: 'uploads',
  });
  await api(service.base, key, 'POST', `/api/v1/testruns/${run.id}/results`, {
    results: [{ automation_id: 'bench.upload', status: 'failed' }],
  });
  await phase('one upload', service.base, service.child, key, run.id, [1]);
  const eight = process.env.BENCH_UPLOADS ? Number(process.env.BENCH_UPLOADS) : 8;
  await phase(
    `${eight} concurrent uploads`,
    service.base,
    service.child,
    key,
    run.id,
    Array.from({ length: eight }, (_, i) => 100 + i),
  );
} finally {
  if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
  rmSync(dir, { recursive: true, force: true });
  await dropDatabase(db.name);
}
