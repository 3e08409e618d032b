import { ServerResponse } from 'node:http';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES, createRun, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, type TestApp } from '../support/app.js';

/**
 * A run's CSV export holds a bounded amount of memory whatever its results hold: a result's
 * message may be 65,535 characters (CONTRACT's limit), so a page of rows written as one string
 * grows with the messages, not with the socket's buffers. Here 1,000 results of a full message
 * (about 64 MiB of text in one run, within every ingest limit).
 */
describe('CSV export memory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('writes to the socket in small pieces, whatever the messages hold', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id, { name: 'Large messages' });
    const message = 'm'.repeat(65_535);
    for (let batch = 0; batch < 20; batch++) {
      const results = Array.from({ length: 50 }, (_, i) => ({
        automation_id: `big.case${batch * 50 + i}`,
        status: 'failed',
        message,
      }));
      await submitResults(t, key, run.id, results).expect(201);
    }

    let peak = 0;
    const base = process.memoryUsage();
    // At each write (the written bytes in the socket's buffer) and every 5 ms.
    const sample = () => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss - base.rss);
    };
    const sampler = setInterval(sample, 5);
    // Watches the service's writes to its responses (the export's, in this process).
    const write = ServerResponse.prototype.write;
    let largest = 0;
    ServerResponse.prototype.write = function (this: ServerResponse, ...args: unknown[]) {
      const chunk = args[0] as string | Buffer;
      if (this.getHeader('content-type') === 'text/csv; charset=utf-8')
        largest = Math.max(largest, Buffer.byteLength(chunk));
      const written = (write as (...a: unknown[]) => boolean).apply(this, args);
      sample();
      return written;
    } as typeof write;
    try {
      const res = await t.http
        .get(`/internal/v1/testruns/${run.id}/results/export`)
        .set(OPERATOR)
        .buffer(true)
        .parse((response, done) => {
          // Counts lines and bytes, keeping nothing: the peak is the service's.
          let lines = 0;
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            for (const byte of chunk) if (byte === 10) lines++;
          });
          response.on('end', () => done(null, { lines, bytes }));
        })
        .expect(200);
      expect(res.body).toMatchObject({ lines: 1001 });
    } finally {
      clearInterval(sampler);
      ServerResponse.prototype.write = write;
    }
    process.stdout.write(
      `largest write ${(largest / 2 ** 20).toFixed(1)} MiB; RSS peak over start ${(peak / 2 ** 20).toFixed(0)} MiB (the client keeps nothing)\n`,
    );
    expect(largest).toBeLessThanOrEqual(1024 * 1024);
  }, 180_000);
});
