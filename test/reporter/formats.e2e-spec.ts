import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import type { Io } from '../../packages/reporter/src/main.js';
import { httpTransport } from '../../packages/reporter/src/transport.js';
import { createProject, type ProjectFixture } from '../factories/catalog.js';
import { FIXTURE_ROOT, RUNNER_FIXTURES, type FixtureFacts } from '../support/runner-fixtures.js';
import { startReporterHarness, type ReporterHarness } from './reporter-harness.js';

const REPORT_FIXTURES = 'test/fixtures/reports';
const ALLURE_RESULTS = `${RUNNER_FIXTURES}/allure/allure-results`;

/** The runners' reports in a format of CONTRACT §14, with what each holds (count-fixtures.py). */
const RUNNER_FACTS = Object.entries(
  JSON.parse(readFileSync(`${RUNNER_FIXTURES}/expected.json`, 'utf8')) as Record<
    string,
    FixtureFacts
  >,
).filter(([, facts]) => ['junit', 'playwright', 'ctrf', 'jest', 'cucumber'].includes(facts.format));

/** The hand-written TRX, NUnit, xUnit and Robot reports, with what each must ingest as. */
interface ReportFacts {
  results: number;
  passed: number;
  failed: number;
  skipped: number;
  retest: number;
  untested: number;
  flaky: number;
  automation_ids_sample: string[];
}
const REPORT_FACTS = Object.entries(
  JSON.parse(readFileSync(`${REPORT_FIXTURES}/expected.json`, 'utf8')) as Record<
    string,
    ReportFacts
  >,
);

const FORMAT_OF_FOLDER: Record<string, string> = {
  trx: 'trx',
  nunit: 'nunit',
  xunit: 'xunit',
  robot: 'robot',
};

/** The folder a runner's report was written in (`/tmp/tm-fixture-suites/<runner>/`). */
const runnerRoot = (file: string) => {
  const runner = file.startsWith('ctrf/') ? file.slice(5).split('-')[0] : file.split('/')[0];
  return `${FIXTURE_ROOT}${runner}/`;
};

interface Submitted {
  code: number;
  err: string;
  answer: {
    run: { id: string; counts: Record<string, number> };
    uploaded: { file: string; kind: string; accepted: number; replayed: number }[];
  };
}

describe('tm-report sends every report format as it is (CONTRACT §14)', () => {
  let h: ReporterHarness;
  let project: ProjectFixture;
  let calls = 0;
  const counting: Io['retry'] = {
    transport: (outgoing, timeoutMs) => {
      calls++;
      return httpTransport(outgoing, timeoutMs);
    },
  };

  beforeAll(async () => {
    h = await startReporterHarness();
    project = await createProject(h.t, h.orgId);
  });
  afterAll(() => h.t.close());
  beforeEach(() => {
    calls = 0;
  });

  async function submit(
    files: string[],
    runName: string,
    options: string[] = [],
    env: Record<string, string> = {},
  ): Promise<Submitted> {
    const result = await h.report(
      [
        'submit',
        ...files.map((file) => path.resolve(file)),
        '--project',
        project.key,
        '--run-name',
        runName,
        '--pipeline-id',
        `${runName}-${project.id}`,
        '--json',
        ...options,
      ],
      env,
      counting,
    );
    return {
      code: result.code,
      err: result.err,
      answer: result.code === 0 ? JSON.parse(result.out) : undefined,
    };
  }

  /** Each slot's current result, with its case's automation id. */
  const resultsOf = async (runId: string) => {
    const results = (await h.get(`/api/v1/testruns/${runId}/results?limit=100`).expect(200)).body
      .data as {
      test_case_id: string;
      configuration: string | null;
      status: string;
      retries: number;
      flaky: boolean;
      message: string | null;
      stack_trace: string | null;
      attempts: { status: string; message: string | null }[];
    }[];
    const cases: { id: string; automation_id: string }[] = await h.t.app
      .get(DataSource)
      .query('SELECT id, automation_id FROM test_case WHERE id = ANY($1)', [
        results.map((r) => r.test_case_id),
      ]);
    const idOf = new Map(cases.map((c) => [c.id, c.automation_id]));
    return results.map((r) => ({ ...r, automation_id: idOf.get(r.test_case_id) as string }));
  };

  const automationIdsOf = async (runId: string) =>
    new Set((await resultsOf(runId)).map((r) => r.automation_id));

  it("lands each runner's report, in its format, with the counts the report holds", async () => {
    expect(RUNNER_FACTS.length).toBeGreaterThanOrEqual(18);
    for (const [file, facts] of RUNNER_FACTS) {
      const { code, err, answer } = await submit([`${RUNNER_FIXTURES}/${file}`], `runner ${file}`, [
        '--path-root',
        runnerRoot(file),
      ]);
      expect([file, code, code === 0 ? '' : err]).toEqual([file, 0, '']);
      expect([file, answer.uploaded.map((u) => u.kind)]).toEqual([file, [facts.format]]);
      // Vitest's JSON has no invocations: no attempts are read from it (CONTRACT §14).
      const vitest = file === 'vitest/vitest.json';
      const { total, flaky, ...statuses } = answer.run.counts;
      expect([file, total, flaky]).toEqual([file, facts.distinct_tests, vitest ? 0 : facts.flaky]);
      expect([file, Object.fromEntries(Object.entries(statuses).filter(([, n]) => n > 0))]).toEqual(
        [file, facts.statuses],
      );
    }
  });

  it('lands each TRX, NUnit 3, xUnit.net v2 and Robot Framework report with its counts', async () => {
    expect(REPORT_FACTS.length).toBeGreaterThanOrEqual(9);
    for (const [file, facts] of REPORT_FACTS) {
      const { code, err, answer } = await submit([`${REPORT_FIXTURES}/${file}`], `report ${file}`);
      expect([file, code, code === 0 ? '' : err]).toEqual([file, 0, '']);
      expect([file, answer.uploaded.map((u) => u.kind)]).toEqual([
        file,
        [FORMAT_OF_FOLDER[file.split('/')[0]]],
      ]);
      expect([file, answer.run.counts]).toEqual([
        file,
        expect.objectContaining({
          total: facts.results,
          passed: facts.passed,
          failed: facts.failed,
          skipped: facts.skipped,
          retest: facts.retest,
          untested: facts.untested,
          flaky: facts.flaky,
        }),
      ]);
      const ids = await automationIdsOf(answer.run.id);
      for (const id of facts.automation_ids_sample)
        expect([file, ids.has(id)]).toEqual([file, true]);
    }
  });

  describe('an Allure results folder', () => {
    // allure-playwright, 10 tests in two projects (desktop, mobile), retries 2: per project
    // 6 passed (one of them after a failed attempt), 3 failed on all 3 attempts, 1 skipped.
    const expectedCounts = { total: 20, passed: 12, failed: 6, skipped: 2, flaky: 2 };

    it('lands as one result per test and project, its retries grouped by historyId', async () => {
      const { code, err, answer } = await submit([ALLURE_RESULTS], 'allure folder');
      expect([code, code === 0 ? '' : err]).toEqual([0, '']);
      expect(answer.uploaded).toEqual([
        expect.objectContaining({ kind: 'allure', accepted: 20, replayed: 0 }),
      ]);
      expect(answer.run.counts).toMatchObject(expectedCounts);
      const results = await resultsOf(answer.run.id);
      const flaky = results
        .filter((r) => r.flaky)
        .sort((a, b) => String(a.configuration).localeCompare(String(b.configuration)));
      expect(flaky.map((r) => [r.configuration, r.retries, r.attempts])).toEqual(
        ['desktop', 'mobile'].map((configuration) => [
          configuration,
          1,
          [expect.objectContaining({ status: 'failed', message: 'Error: first attempt fails' })],
        ]),
      );
      const failed = results.filter((r) => r.status === 'failed');
      expect(failed.map((r) => [r.retries, r.attempts.length])).toEqual(Array(6).fill([2, 2]));
      const coupon = failed.find((r) => r.automation_id.endsWith('applies a coupon'));
      expect(coupon).toMatchObject({
        message: expect.stringContaining('coupon FREE applied'),
        stack_trace: expect.stringContaining('tests/cart.spec.js:'),
      });
      const ids = await automationIdsOf(answer.run.id);
      expect(ids).toEqual(
        new Set([
          'cart.spec.js › Cart › shows the total',
          'cart.spec.js › Cart › applies a coupon',
          'cart.spec.js › Cart › loads the catalogue',
          'cart.spec.js › Cart › removes an item',
          'cart.spec.js › Cart › handles naïve café ✓',
          'cart.spec.js › Cart › recovers on retry',
          'cart.spec.js › Cart › fails on every attempt',
          'cart.spec.js › same name in two files',
          'checkout.spec.js › Checkout › pays',
          'checkout.spec.js › same name in two files',
        ]),
      );
    });

    it('is read the same from a glob of its *-result.json files (the same call: replayed)', async () => {
      const folder = await submit([ALLURE_RESULTS], 'allure glob');
      const glob = await submit([`${ALLURE_RESULTS}/*.json`], 'allure glob');
      expect([glob.code, glob.code === 0 ? '' : glob.err]).toEqual([0, '']);
      expect(glob.answer.uploaded).toEqual([
        expect.objectContaining({ kind: 'allure', accepted: 20, replayed: 1 }),
      ]);
      expect(glob.answer.run).toMatchObject({ id: folder.answer.run.id, counts: expectedCounts });
    });
  });

  describe('path_root', () => {
    const jest = `${RUNNER_FIXTURES}/jest/jest.json`;
    const firstId = async (runId: string) =>
      [...(await automationIdsOf(runId))].find((id) => id.includes('applies a coupon'));

    it('--path-root (or TM_PATH_ROOT) takes the checkout folder off the ids of a report with absolute paths', async () => {
      const root = `${FIXTURE_ROOT}jest/`;
      const flag = await submit([jest], 'path root flag', ['--path-root', root.slice(0, -1)]);
      const env = await submit([jest], 'path root env', [], { TM_PATH_ROOT: root });
      const none = await submit([jest], 'path root none');
      for (const { code, err } of [flag, env, none])
        expect([code, code ? err : '']).toEqual([0, '']);
      expect(await firstId(flag.answer.run.id)).toBe('cart.test.js.Cart › applies a coupon');
      expect(await firstId(env.answer.run.id)).toBe('cart.test.js.Cart › applies a coupon');
      // By default the working directory (no repository here), which the report's paths are not in.
      expect(await firstId(none.answer.run.id)).toBe(`${root}cart.test.js.Cart › applies a coupon`);
    });

    it('is the working directory by default when it is not in a git repository', async () => {
      // A Jest report written in the folder the reporter runs in.
      h.write(
        'jest-here/report.json',
        JSON.stringify({
          testResults: [
            {
              name: path.join(h.dir, 'src', 'cart.test.js'),
              assertionResults: [
                { ancestorTitles: ['Cart'], title: 'adds', status: 'passed', failureMessages: [] },
              ],
            },
          ],
        }),
      );
      const result = await submit([path.join(h.dir, 'jest-here/report.json')], 'path root cwd');
      expect([result.code, result.code ? result.err : '']).toEqual([0, '']);
      expect([...(await automationIdsOf(result.answer.run.id))]).toEqual([
        'src/cart.test.js.Cart › adds',
      ]);
    });
  });

  describe('--dry-run', () => {
    it('checks every format, naming it, and sends nothing', async () => {
      const files = [
        ...RUNNER_FACTS.map(([file]) => `${RUNNER_FIXTURES}/${file}`),
        ...REPORT_FACTS.map(([file]) => `${REPORT_FIXTURES}/${file}`),
        ALLURE_RESULTS,
      ].map((file) => path.resolve(file));
      const result = await h.report(['submit', '--dry-run', ...files], {}, counting);
      expect([result.code, result.code ? result.err : '']).toEqual([0, '']);
      const lines = result.err.trim().split('\n');
      expect(lines).toHaveLength(files.length);
      const label: Record<string, string> = {
        junit: 'JUnit XML',
        playwright: 'Playwright JSON',
        ctrf: 'CTRF JSON',
        jest: 'Jest/Vitest JSON',
        cucumber: 'Cucumber JSON',
        trx: 'VSTest TRX',
        nunit: 'NUnit 3 XML',
        xunit: 'xUnit.net v2 XML',
        robot: 'Robot Framework output.xml',
      };
      for (const [file, facts] of RUNNER_FACTS) {
        expect(lines).toContain(
          `tm-report: ${path.resolve(RUNNER_FIXTURES, file)}: ${label[facts.format]}, ${facts.records} results: ok`,
        );
      }
      for (const [file] of REPORT_FACTS) {
        expect(lines).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^tm-report: ${path.resolve(REPORT_FIXTURES, file).replace(/[.]/g, '\\.')}: ${label[FORMAT_OF_FOLDER[file.split('/')[0]]]}, \\d+ results: ok$`,
            ),
          ),
        );
      }
      expect(lines).toContain(
        `tm-report: ${path.resolve(ALLURE_RESULTS)}: Allure results, 20 results: ok`,
      );
      expect(calls).toBe(0);
    });

    it('refuses a broken report of each kind with its file, line and column, sending nothing', async () => {
      const nunit = readFileSync(`${REPORT_FIXTURES}/nunit/nunitlite.xml`, 'utf8');
      const lines = nunit.split('\n');
      const at = lines.findIndex((line) => line.includes('<test-case '));
      // A test case that is never closed: its suite's closing tag does not match it.
      lines[at] = lines[at].replace(/\s*\/>\s*$/, '>');
      h.write('broken/nunit.xml', lines.join('\n'));
      h.write(
        'broken/robot.xml',
        readFileSync(`${REPORT_FIXTURES}/robot/rf5-output.xml`, 'utf8').replace(
          'Delete Missing User',
          'Delete \u001b[31mMissing User',
        ),
      );
      h.write(
        'broken/ctrf.json',
        readFileSync(`${RUNNER_FIXTURES}/ctrf/jest-ctrf.json`, 'utf8').slice(0, 400),
      );
      h.write('broken/mocha.json', readFileSync(`${RUNNER_FIXTURES}/mocha/mocha.json`, 'utf8'));
      h.write('broken/allure-results/a-result.json', '{"name": "a", "status": "green"}');
      const nunitResult = await h.report(['submit', '--dry-run', 'broken/nunit.xml'], {}, counting);
      expect(nunitResult.code).toBe(2);
      expect(nunitResult.err).toMatch(
        new RegExp(
          `broken/nunit\\.xml:\\d+:\\d+: invalid NUnit 3 XML report: closing tag </[-\\w]+> does not match <test-case> opened on line ${at + 1}`,
        ),
      );
      const robot = await h.report(['submit', '--dry-run', 'broken/robot.xml'], {}, counting);
      expect(robot.err).toMatch(
        /broken\/robot\.xml:\d+:\d+: invalid Robot Framework output\.xml report: the character U\+001B \(ESC\)/,
      );
      const ctrf = await h.report(['submit', '--dry-run', 'broken/ctrf.json'], {}, counting);
      expect(ctrf.err).toMatch(/broken\/ctrf\.json:\d+: invalid JSON report: not valid JSON/);
      const mocha = await h.report(['submit', '--dry-run', 'broken/mocha.json'], {}, counting);
      expect(mocha.err).toContain(
        'broken/mocha.json:1: invalid JSON report: expected result items (an array of them, or {"results": [...]}) or a report: Playwright JSON',
      );
      const allure = await h.report(['submit', '--dry-run', 'broken/allure-results'], {}, counting);
      expect(allure.err).toContain(
        'broken/allure-results/a-result.json:1: invalid Allure result: status "green" is not one of passed, failed, broken, skipped, unknown.',
      );
      expect(calls).toBe(0);
    });
  });
});
