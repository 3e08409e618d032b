import { gunzipSync } from 'node:zlib';
import type { Io } from '../../packages/reporter/src/main.js';
import { httpTransport } from '../../packages/reporter/src/transport.js';
import { createProject } from '../factories/catalog.js';
import { FaultProxy } from './fault-proxy.js';
import { junit, startReporterHarness, type ReporterHarness } from './reporter-harness.js';

/** What tm-report sends of a job's reports, and what it says when not all of them arrive. */
describe('tm-report sending reports', () => {
  let h: ReporterHarness;
  beforeAll(async () => {
    h = await startReporterHarness();
  });
  afterAll(() => h.t.close());

  const onlyRunOf = async (projectId: string) => {
    const runs = (await h.get(`/api/v1/testruns?project_id=${projectId}`).expect(200)).body;
    expect(runs.pagination.total).toBe(1);
    return runs.data[0] as { id: string; counts: Record<string, number> };
  };
  const resultsOf = async (runId: string, query = '') =>
    (await h.get(`/api/v1/testruns/${runId}/results?limit=100${query}`).expect(200)).body;

  describe('a submit that fails half-way', () => {
    let proxy: FaultProxy | undefined;
    afterEach(() => proxy?.close());
    const noWaiting: Io['retry'] = { sleep: async () => undefined };

    it('names exactly the reports stored and those not; the same submit again completes the run without duplicates', async () => {
      const project = await createProject(h.t, h.orgId);
      // The JUnit reports share one body (pack.ts); each JSON file goes in a call of its own.
      const suites = ['A', 'B', 'C', 'D', 'E', 'F'];
      const json = new Set(['B', 'E']);
      const fileOf = (suite: string) => `half/${suite}.${json.has(suite) ? 'json' : 'xml'}`;
      for (const suite of suites) {
        if (!json.has(suite)) h.write(fileOf(suite), junit(`half.${suite}`, 3));
        else {
          const results = [0, 1, 2].map((i) => ({
            automation_id: `half.${suite}.case${i}`,
            status: 'passed',
          }));
          h.write(fileOf(suite), JSON.stringify({ results }));
        }
      }
      // The network loses every upload of C.xml, on every attempt.
      proxy = await new FaultProxy(h.port, (method, path, _n, body) =>
        method === 'POST' && path.endsWith('/results/ingest') && body.includes('"half.C"')
          ? 'drop'
          : 'forward',
      ).start();
      const args = ['submit', 'half/*', '--project', project.key, '--run-name', 'half'];
      const pipeline = ['--pipeline-id', `half-${project.id}`, '--json'];
      const failed = await h.report(
        [...args, ...pipeline],
        { TM_URL: `http://127.0.0.1:${proxy.port}/api/v1` },
        noWaiting,
      );
      expect(failed.code).toBe(2);
      const answer = JSON.parse(failed.out) as {
        ok: boolean;
        stored: string[];
        not_stored: { file: string; error: string }[];
      };
      expect(answer.ok).toBe(false);
      expect(answer.not_stored).toContainEqual({
        file: 'half/C.xml',
        error: expect.stringContaining('Cannot reach the service'),
      });
      expect([...answer.stored, ...answer.not_stored.map((n) => n.file)].sort()).toEqual(
        suites.map(fileOf).sort(),
      );
      // The body of A, C, D and F was lost, the JSON files arrived.
      expect(answer.stored.sort()).toEqual(['half/B.json', 'half/E.json']);
      expect(failed.err).toMatch(
        new RegExp(
          `reports were not stored in run "half" \\([0-9a-f-]{36}\\): run the same submit again \\(the ${answer.stored.length} stored already are answered with their replay, not stored twice\\)\\.\\nStored \\(${answer.stored.length} of 6 reports\\):\\n`,
        ),
      );
      expect(failed.err).toContain('  half/C.xml: Cannot reach the service');

      // What the service holds is exactly what was said to be stored: a report's test cases
      // are made with its results.
      const run = await onlyRunOf(project.id);
      const cases = await h.get(`/api/v1/projects/${project.id}/testcases?limit=100`).expect(200);
      const held = new Set(
        cases.body.data.map((c: { automation_id: string }) =>
          fileOf(c.automation_id.split('.')[1]),
        ),
      );
      expect([...held].sort()).toEqual([...answer.stored].sort());
      expect((await resultsOf(run.id)).pagination.total).toBe(3 * answer.stored.length);

      await proxy.close();
      proxy = undefined;
      const again = await h.report([...args, ...pipeline]);
      expect({ code: again.code, err: again.code ? again.err : '' }).toEqual({
        code: 0,
        err: expect.any(String),
      });
      const uploaded = JSON.parse(again.out).uploaded as { file: string; replayed: number }[];
      expect(uploaded.filter((u) => u.replayed > 0).map((u) => u.file)).toEqual(
        [...answer.stored].sort(),
      );
      expect((await onlyRunOf(project.id)).counts).toMatchObject({ total: 18, passed: 18 });
      expect((await resultsOf(run.id, '&include_history=true')).pagination.total).toBe(18);
    });
  });

  it('sends a 14 MiB report gzipped, split between its testsuites into bodies each within the inflated 10 MiB', async () => {
    const project = await createProject(h.t, h.orgId);
    const output = 'x'.repeat(10_500);
    const suites = Array.from({ length: 14 }, (_, s) => {
      const cases = Array.from(
        { length: 100 },
        (_, c) =>
          `<testcase classname="large.Suite${s}" name="case${c}"><system-out>${output}</system-out></testcase>`,
      );
      return `<testsuite name="large.Suite${s}" tests="100">\n${cases.join('\n')}\n</testsuite>`;
    });
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
    expect(xml.length).toBeGreaterThan(14 * 1024 * 1024);
    h.write('large/report.xml', xml);
    const sent: { encoding?: string; bytes: number; inflated: number }[] = [];
    const result = await h.report(
      ['submit', 'large/report.xml', '--project', project.key, '--run-name', 'large', '--json'],
      {},
      {
        transport: (outgoing, timeoutMs) => {
          if (outgoing.headers['content-type'] === 'application/xml' && outgoing.body) {
            const encoding = outgoing.headers['content-encoding'];
            const inflated =
              encoding === 'gzip' ? gunzipSync(outgoing.body).length : outgoing.body.length;
            sent.push({ encoding, bytes: outgoing.body.length, inflated });
          }
          return httpTransport(outgoing, timeoutMs);
        },
      },
    );
    expect({ code: result.code, err: result.code ? result.err : '' }).toEqual({
      code: 0,
      err: expect.any(String),
    });
    // Two bodies of testsuites, each within the limit once inflated.
    expect(sent).toHaveLength(2);
    for (const body of sent) {
      expect(body.encoding).toBe('gzip');
      expect(body.bytes).toBeLessThan(256 * 1024);
      expect(body.inflated).toBeLessThanOrEqual(10 * 1024 * 1024);
    }
    expect(JSON.parse(result.out).uploaded).toEqual([
      expect.objectContaining({ file: 'large/report.xml', accepted: 1400 }),
    ]);
    expect((await onlyRunOf(project.id)).counts).toMatchObject({ total: 1400, passed: 1400 });
  }, 120_000);

  it('refuses, in a dry run, a report the service would refuse, naming file, line and column', async () => {
    let calls = 0;
    const counting: Io['retry'] = {
      transport: (outgoing, timeoutMs) => {
        calls++;
        return httpTransport(outgoing, timeoutMs);
      },
    };
    h.write('dry/ok.xml', junit('dry.Ok', 2));
    h.write(
      'dry/esc.xml',
      '<testsuite name="ui">\n  <testcase name="red \u001b[31mtext"/>\n</testsuite>\n',
    );
    h.write(
      'dry/nul.xml',
      '<testsuite name="ui">\n<testcase name="a">\u0000</testcase>\n</testsuite>',
    );
    const esc = await h.report(['submit', '--dry-run', 'dry/ok.xml', 'dry/esc.xml'], {}, counting);
    expect(esc.code).toBe(2);
    expect(esc.err).toContain(
      'tm-report: error: dry/esc.xml:2:23: invalid JUnit XML report: the character U+001B (ESC), which XML 1.0 does not allow',
    );
    const nul = await h.report(['submit', '--dry-run', 'dry/nul.xml']);
    expect(nul.err).toContain(
      'dry/nul.xml:2:20: invalid JUnit XML report: the character U+0000 (NUL)',
    );
    expect(calls).toBe(0);
  });

  it('sends every result in the configuration of --configuration, or TM_CONFIGURATION', async () => {
    const project = await createProject(h.t, h.orgId);
    h.write('matrix/report.xml', junit('matrix.Shop', 3, [1]));
    h.write('matrix/api.json', JSON.stringify([{ automation_id: 'matrix.api', status: 'passed' }]));
    const args = ['submit', 'matrix/*', '--project', project.key, '--run-name', 'matrix'];
    const pipeline = ['--pipeline-id', `matrix-${project.id}`, '--json'];
    const firefox = await h.report([...args, ...pipeline, '--configuration', 'firefox']);
    const chromium = await h.report([...args, ...pipeline], { TM_CONFIGURATION: ' chromium ' });
    for (const leg of [firefox, chromium]) {
      expect({ code: leg.code, err: leg.code ? leg.err : '' }).toEqual({
        code: 0,
        err: expect.any(String),
      });
      // The same files in another configuration are other results, not a replay.
      expect(JSON.parse(leg.out).uploaded).toEqual([
        expect.objectContaining({ file: 'matrix/api.json', accepted: 1, replayed: 0 }),
        expect.objectContaining({ file: 'matrix/report.xml', accepted: 3, replayed: 0 }),
      ]);
    }
    expect(chromium.err).toContain(', configuration "chromium"');
    const run = await onlyRunOf(project.id);
    expect(run.counts).toMatchObject({ total: 8, failed: 2 });
    for (const configuration of ['firefox', 'chromium']) {
      const results = await resultsOf(run.id, `&configuration=${configuration}`);
      expect(results.data).toHaveLength(4);
      for (const result of results.data) expect(result.configuration).toBe(configuration);
    }
  });
});
