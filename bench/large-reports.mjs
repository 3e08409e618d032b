// Memory under the largest reports: six 10 MiB JUnit reports (150,000 new cases each) sent
// at once to one service process, as `npm run start:prod` runs it. Prints the peak RSS (the
// pods' memory limit is 512Mi), the time each report took, and checks every result stored.
import pg from 'pg';
import { benchProject, createDatabase, dropDatabase, rss, sampleRss, startService, viaHttps } from './support.mjs';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 6);
const CASES = Number(process.env.BENCH_REPORT_CASES ?? 150_000);

const db = createDatabase('large');
const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' });
const baseline = rss(service.child.pid);
const memory = sampleRss(service.child.pid, 50);
const client = new pg.Client({ connectionString: db.url });
await client.connect();
try {
  const { key, project } = await benchProject(service.base, ['testruns:create', 'results:submit'], 'Large', 'LARGE');
  const reportOf = (pkg) =>
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n' +
    Array.from({ length: 100 }, (_, s) => {
      const cases = Array.from({ length: CASES / 100 }, (_, i) =>
        i % 50 === 0
          ? `<testcase classname="${pkg}.m${s}" name="test${i}" time="0.012"><failure message="expected &lt;1&gt;">at Suite.java:${i}</failure></testcase>`
          : `<testcase classname="${pkg}.m${s}" name="test${i}" time="0.003"/>`,
      ).join('\n');
      return `<testsuite name="${pkg}.module${s}" tests="${CASES / 100}">\n${cases}\n</testsuite>`;
    }).join('\n') +
    '\n</testsuites>\n';
  const reports = Array.from({ length: REPORTS }, (_, i) => reportOf(`com.large${i}`));
  const started = process.hrtime.bigint();
  const seconds = await Promise.all(
    reports.map(async (report) => {
      const res = await fetch(`${service.base}/api/v1/results/ingest?project_id=${project.id}&run_name=large`, {
        method: 'POST',
        headers: { ...viaHttps, authorization: `Bearer ${key}`, 'content-type': 'application/xml' },
        body: report,
      });
      const body = await res.json();
      if (res.status !== 201 || body.accepted !== CASES || body.created_test_cases !== CASES) {
        throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
      return Number(process.hrtime.bigint() - started) / 1e9;
    }),
  );
  const { rows } = await client.query('SELECT count(*)::int AS n FROM test_result');
  if (rows[0].n !== REPORTS * CASES) throw new Error(`${rows[0].n} results stored, not ${REPORTS * CASES}`);
  memory.stop();
  console.log(
    `${REPORTS} reports of ${(reports[0].length / 1048576).toFixed(1)} MiB (${CASES} new cases each) at once: ` +
      `done after ${seconds.map((s) => s.toFixed(1)).join(', ')} s; ${rows[0].n} results stored`,
  );
  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
  const peak = memory.peak;
  console.log(`RSS: ${mb(baseline)} MB idle, peak ${mb(peak)} MB (the pods' limit is 512 MiB): ${peak < 512 * 1024 * 1024 ? 'under' : 'OVER'}`);
} finally {
  memory.stop();
  await client.end();
  await service.stop();
  await dropDatabase(db.name);
}
