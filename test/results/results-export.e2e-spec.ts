import { jest } from '@jest/globals';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES, createRun, submitResults } from '../factories/runs.js';
import { listenOnLoopback, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import { csvRecords, parseCsv } from '../support/csv.js';
import {
  EXPORT_PAGE_SIZE,
  ResultsExportRepository,
} from '../../src/results/results-export.repository.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

/** The body of a supertest answer as text, whatever its type. */
const asText = (res: { text?: string; body: unknown }) =>
  typeof res.text === 'string' ? res.text : Buffer.from(res.body as Buffer).toString('utf8');

/**
 * A run's results as CSV (issue 31): every current result, quoted as RFC 4180 says, text that a
 * spreadsheet would run as a formula made text, streamed from the database a page at a time.
 */
describe('GET /internal/v1/testruns/{id}/results/export', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const exportOf = (runId: string) =>
    t.http
      .get(`/internal/v1/testruns/${runId}/results/export`)
      .set(OPERATOR)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });

  async function runWith(results: object[]) {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id, { name: 'Nightly e2e' });
    await submitResults(t, key, run.id, results).expect(201);
    return { key, project, run };
  }

  it('writes each current result, quoting commas, quotes and line breaks, guarding formulas', async () => {
    const { run } = await runWith([
      {
        automation_id: 'cart.adds',
        title: 'Adds an item, then "another"',
        status: 'passed',
        duration_ms: 120,
      },
      {
        automation_id: 'cart.pays',
        title: '=HYPERLINK("http://evil.example", "click")',
        status: 'failed',
        message: 'expected 200,\ngot 402',
        failure_type: 'AssertionError',
        defects: ['QA-1', 'QA-2'],
        configuration: 'firefox',
        retries: 1,
      },
      { automation_id: '-sum', title: '+1+1', status: 'blocked', message: '@SUM(A1:A9)' },
      { automation_id: 'naive', title: 'Naïve café', status: 'skipped', message: '-2' },
    ]);
    const res = await exportOf(run.id).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Nightly_e2e_results.csv"; filename*=UTF-8''Nightly%20e2e%20results.csv`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const text = asText(res);
    expect(text.startsWith('\uFEFF')).toBe(true);

    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      'test_case_id',
      'automation_id',
      'title',
      'configuration',
      'status',
      'duration_ms',
      'retries',
      'flaky',
      'failure_type',
      'message',
      'defects',
      'executed_at',
      'stored_at',
      'result_id',
    ]);
    expect(rows).toHaveLength(5);
    const byId = new Map(csvRecords(text).map((r) => [r.automation_id, r]));
    expect(byId.get('cart.adds')).toMatchObject({
      title: 'Adds an item, then "another"',
      status: 'passed',
      duration_ms: '120',
      configuration: '',
      flaky: 'false',
    });
    expect(byId.get('cart.pays')).toMatchObject({
      title: `'=HYPERLINK("http://evil.example", "click")`,
      status: 'failed',
      message: 'expected 200,\ngot 402',
      failure_type: 'AssertionError',
      defects: 'QA-1 QA-2',
      configuration: 'firefox',
      retries: '1',
    });
    // A text cell starting with -, +, @ is made text; the automation id too.
    expect(byId.get(`'-sum`)).toMatchObject({ title: `'+1+1`, message: `'@SUM(A1:A9)` });
    expect(byId.get('naive')).toMatchObject({ title: 'Naïve café', message: `'-2` });
    // The raw bytes: quoted where needed, quotes doubled, lines ended by CRLF.
    expect(text).toContain(`,"'=HYPERLINK(""http://evil.example"", ""click"")",firefox,failed,`);
    expect(text).toContain(`"expected 200,\ngot 402"`);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('writes only the header for a run without results', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id);
    const rows = parseCsv(asText(await exportOf(run.id).expect(200)));
    expect(rows).toHaveLength(1);
  });

  it('answers 404 in the envelope for an unknown run, and 401 to an API key', async () => {
    const unknown = await t.http
      .get(`/internal/v1/testruns/${UNKNOWN_ID}/results/export`)
      .set(OPERATOR)
      .expect(404);
    expect(unknown.body).toMatchObject({ error: 'not_found' });
    const { key, run } = await runWith([{ automation_id: 'a', status: 'passed' }]);
    const refused = await t.http
      .get(`/internal/v1/testruns/${run.id}/results/export`)
      .set(withKey(key))
      .expect(401);
    expect(refused.body).toMatchObject({ error: 'unauthorized' });
  });

  it('streams a large run a page at a time: a client that stops reading stops the reading', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const run = await createRun(t, key, project.id, { name: 'Large' });
    // 20 pages of about 1 MB each: more than the sockets' buffers hold.
    const pageCount = 20;
    const message = 'x'.repeat(1000);
    for (let batch = 0; batch < 4; batch++) {
      const results = Array.from({ length: 5000 }, (_, i) => ({
        automation_id: `large.case${batch * 5000 + i}`,
        status: 'failed',
        message,
      }));
      await submitResults(t, key, run.id, results).expect(201);
    }

    // Counts the pages the export reads (the repository as it is, only watched).
    const repository = t.app.get(ResultsExportRepository);
    const pages = repository.pages.bind(repository);
    let read = 0;
    const watched = jest.spyOn(repository, 'pages').mockImplementation(async function* (...args) {
      for await (const page of pages(...args)) {
        read++;
        yield page;
      }
    });
    try {
      const port = await listenOnLoopback(t);
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: `/internal/v1/testruns/${run.id}/results/export`,
            headers: OPERATOR,
          },
          resolve,
        )
          .on('error', reject)
          .end(),
      );
      expect(response.statusCode).toBe(200);
      const chunks: Buffer[] = [];
      // The first bytes, then nothing read for a while: the service waits for the client.
      await new Promise<void>((resolve) =>
        response.once('data', (chunk: Buffer) => {
          chunks.push(chunk);
          response.pause();
          resolve();
        }),
      );
      // Until the reading has stood still for 2 s (a service that did not wait would go on to
      // the last page).
      for (let still = 0, seen = read, waited = 0; still < 4 && waited < 30_000; waited += 500) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        still = read === seen ? still + 1 : 0;
        seen = read;
      }
      const readWhilePaused = read;
      expect(readWhilePaused).toBeGreaterThanOrEqual(1);
      expect(readWhilePaused).toBeLessThan(pageCount);

      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      const ended = new Promise((resolve) => response.on('end', resolve));
      response.resume();
      await ended;
      expect(read).toBe(pageCount);
      const text = Buffer.concat(chunks).toString('utf8');
      const rows = parseCsv(text);
      expect(rows).toHaveLength(1 + pageCount * EXPORT_PAGE_SIZE);
      expect(new Set(rows.slice(1).map((row) => row[1])).size).toBe(20_000);
    } finally {
      watched.mockRestore();
    }
  }, 120_000);

  it('exports only the run named: another organization’s run is not reachable by a key', async () => {
    const a = await runWith([{ automation_id: 'a.only', status: 'passed' }]);
    const b = await runWith([{ automation_id: 'b.only', status: 'passed' }]);
    const text = asText(await exportOf(b.run.id).expect(200));
    expect(text).toContain('b.only');
    expect(text).not.toContain('a.only');
    await t.http.get(`/api/v1/testruns/${a.run.id}/results/export`).set(withKey(b.key)).expect(404);
  });
});
