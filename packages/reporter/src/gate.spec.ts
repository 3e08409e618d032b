import { serviceClient } from './client.js';
import { gateLines, readGate, storedSummaryLines } from './gate.js';
import type { TestRun } from './run.js';
import type { Outgoing } from './transport.js';

const RUN_ID = '01a20b3d-0000-7000-8000-000000000001';
const PROJECT_ID = '01a20b3d-0000-7000-8000-000000000002';
const caseId = (n: number) => `01a20b3d-0000-7000-8000-1000000000${String(n).padStart(2, '0')}`;

function flakyTest(n: number, quarantined = false) {
  return {
    test_case_id: caseId(n),
    automation_id: `case${n}`,
    title: `Case ${n}`,
    executions: 10,
    flips: 5,
    flip_rate: 0.5556,
    retried_passes: 0,
    last_status: 'passed',
    quarantined,
  };
}

const page = (data: unknown[], total = data.length) => ({
  data,
  pagination: { total, limit: 100, offset: 0, has_more: total > data.length },
});

/** A service that knows one run holding cases 1 and 3 of the project's flaky list 1, 2, 3. */
function service(flakyTotal: number, refused: string[] = []) {
  const asked: string[] = [];
  const answers: Record<string, (url: URL) => unknown> = {
    [`/api/v1/testruns/${RUN_ID}/gate`]: () => ({ test_run_id: RUN_ID, passed: true, rules: [] }),
    [`/api/v1/testruns/${RUN_ID}/comparison`]: () => ({
      test_run_id: RUN_ID,
      baseline_run_id: null,
      summary: {
        new_failures: 0,
        still_failing: 0,
        fixed: 0,
        new_tests: 0,
        missing_tests: 0,
        flaky: 0,
      },
      new_failures: [],
      still_failing: [],
      fixed: [],
    }),
    [`/api/v1/testruns/${RUN_ID}/failures`]: () => page([]),
    [`/api/v1/projects/${PROJECT_ID}/flaky-tests`]: () =>
      page([flakyTest(1), flakyTest(2), flakyTest(3, true)], flakyTotal),
    [`/api/v1/testruns/${RUN_ID}/results`]: (url) => {
      const inRun = [caseId(1), caseId(3)];
      const asked = url.searchParams.get('test_case_id');
      const ids = asked ? inRun.filter((id) => id === asked) : inRun;
      return page(ids.map((id) => ({ test_case_id: id })));
    },
  };
  const client = serviceClient(
    { baseUrl: 'https://tm.example', apiKey: 'svc_live_0', extraHeaders: {} },
    {
      transport: async ({ url }: Outgoing) => {
        asked.push(`${url.pathname}${url.search}`);
        if (refused.includes(url.pathname)) {
          return Response.json({ error: 'insufficient_scope', message: 'no' }, { status: 403 });
        }
        return Response.json(answers[url.pathname](url));
      },
    },
  );
  return { client, asked };
}

const run = (total: number) =>
  ({ id: RUN_ID, project_id: PROJECT_ID, counts: { total } }) as TestRun;

describe('the gate’s flaky tests', () => {
  it('looks each of the project’s flaky tests up in a large run', async () => {
    const { client, asked } = service(3);
    const report = await readGate(client, run(20_000));
    expect(report.flakyTests.map((f) => f.automation_id)).toEqual(['case1', 'case3']);
    expect(asked.filter((a) => a.includes('/results')).sort()).toEqual(
      [1, 2, 3].map((n) => `/api/v1/testruns/${RUN_ID}/results?test_case_id=${caseId(n)}&limit=1`),
    );
  });

  it('asks for at most the 20 most flaky, so a gate costs few of the quota’s calls', async () => {
    const { client, asked } = service(3);
    await readGate(client, run(20_000));
    expect(asked).toContain(`/api/v1/projects/${PROJECT_ID}/flaky-tests?limit=20`);
  });

  it('still reads the gate with a key that may not read results, and says why flaky tests are missing', async () => {
    const { client, asked } = service(3, [`/api/v1/projects/${PROJECT_ID}/flaky-tests`]);
    const report = await readGate(client, run(20_000));
    expect(report.gate.passed).toBe(true);
    expect(report.flakyTests).toEqual([]);
    expect(asked.filter((a) => a.includes('/results'))).toEqual([]);
    expect(gateLines(report)).toContain(
      'Flaky tests: not read (the API key lacks the results:read scope)',
    );
  });

  it('lists a small run’s results instead, when that takes fewer calls', async () => {
    const { client, asked } = service(3);
    const report = await readGate(client, run(150));
    expect(report.flakyTests.map((f) => f.automation_id)).toEqual(['case1', 'case3']);
    expect(asked.filter((a) => a.includes('/results')).sort()).toEqual([
      `/api/v1/testruns/${RUN_ID}/results?limit=100&offset=0`,
      `/api/v1/testruns/${RUN_ID}/results?limit=100&offset=100`,
    ]);
  });

  it('prints them, quarantine marked, and says when only the most flaky were looked for', async () => {
    const { client } = service(250);
    const text = gateLines(await readGate(client, run(20_000))).join('\n');
    expect(text).toContain(
      [
        'Flaky tests (2):',
        '  - case1: flips 56 % over 10 results, last passed',
        '  - case3: flips 56 % over 10 results, last passed [quarantined]',
        "  (the project's 3 most flaky tests of 250 were looked for in this run)",
      ].join('\n'),
    );
  });
});

describe('a shard’s step summary, the run not read', () => {
  it('says what the job stored, the run’s name escaped', () => {
    const lines = storedSummaryLines(
      { name: 'e2e <b>', runId: RUN_ID, results: 35, reports: 2 },
      'https://ci.example/job/1',
    );
    expect(lines[0]).toBe('### Test run e2e \\<b\\>');
    expect(lines[2]).toBe(
      `This job stored 35 results of 2 reports in run \`${RUN_ID}\` ([job](https://ci.example/job/1)); the run's counts and gate: the job that completes it.`,
    );
  });
});

describe('the gate without its details', () => {
  it('reads only the rules, in one call, and says how to read the rest', async () => {
    const { client, asked } = service(3);
    const report = await readGate(client, run(20_000), false);
    expect(asked).toEqual([`/api/v1/testruns/${RUN_ID}/gate`]);
    expect(report.comparison).toBeUndefined();
    expect(gateLines(report).at(-1)).toBe(
      "New failures, fixed and flaky tests and failure groups: not read (--details reads them, or see the run's page)",
    );
  });
});
