import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';
import { FIXTURE_ROOT, type FixtureFacts, RUNNER_FIXTURES } from '../support/runner-fixtures.js';

const FACTS = JSON.parse(readFileSync(`${RUNNER_FIXTURES}/expected.json`, 'utf8')) as Record<
  string,
  FixtureFacts
>;
const JSON_FORMATS = ['playwright', 'ctrf', 'jest', 'cucumber'];
const REPORTS = Object.entries(FACTS).filter(([, facts]) => JSON_FORMATS.includes(facts.format));

/** The folder each fixture's runner ran in (`/tmp/tm-fixture-suites/<runner>/`): `path_root`. */
const rootOf = (file: string) => {
  const runner = file.startsWith('ctrf/') ? file.slice(5).split('-')[0] : file.split('/')[0];
  return `${FIXTURE_ROOT}${runner}/`;
};

describe('POST /results/ingest (JSON reports: Playwright, CTRF, Jest/Vitest, Cucumber)', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await startApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function setup() {
    const tenant = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, tenant.org.id);
    return { ...tenant, project };
  }

  const post = (key: string, query: string, body: string | object) =>
    t.http
      .post(`/api/v1/results/ingest?${query}`)
      .set(withKey(key))
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  const fixture = (file: string) => readFileSync(`${RUNNER_FIXTURES}/${file}`, 'utf8');

  interface Stored {
    automation_id: string;
    configuration: string;
    status: string;
    retries: number;
    flaky: boolean;
  }
  const storedIn = (runId: string): Promise<Stored[]> =>
    db.query(
      `SELECT c.automation_id, r.configuration, r.status, r.retries, r.flaky
         FROM test_result r JOIN test_case c ON c.id = r.test_case_id
        WHERE r.test_run_id = $1`,
      [runId],
    );

  it('reads each JSON fixture with the counts the report holds, path_root taken off its ids', async () => {
    expect(REPORTS.length).toBeGreaterThanOrEqual(7);
    const { key, project } = await setup();
    for (const [file, facts] of REPORTS) {
      const root = rootOf(file);
      const res = await post(
        key,
        `project_id=${project.id}&run_name=${encodeURIComponent(file)}&path_root=${encodeURIComponent(root)}`,
        fixture(file),
      );
      expect([file, res.status, res.body.accepted]).toEqual([file, 201, facts.distinct_tests]);
      const stored = await storedIn(res.body.test_run_id);
      const statuses: Record<string, number> = {};
      for (const { status } of stored) statuses[status] = (statuses[status] ?? 0) + 1;
      expect([file, statuses]).toEqual([file, facts.statuses]);
      // Vitest's JSON has no invocations: no attempts are read from it (CONTRACT §14).
      const vitest = file === 'vitest/vitest.json';
      expect([file, stored.reduce((sum, row) => sum + row.retries, 0)]).toEqual([
        file,
        vitest ? 0 : facts.retries,
      ]);
      expect([file, stored.filter((row) => row.flaky).length]).toEqual([
        file,
        vitest ? 0 : facts.flaky,
      ]);
      const configurations = [...new Set(stored.map((row) => row.configuration))].filter(Boolean);
      expect([file, configurations.sort()]).toEqual([file, facts.configurations]);
      const ids = new Set(stored.map((row) => row.automation_id));
      for (const sample of facts.automation_ids_sample) {
        const id = sample.startsWith(root) ? sample.slice(root.length) : sample;
        expect([file, ids.has(id)]).toEqual([file, true]);
      }
      for (const id of ids) expect(id.startsWith(FIXTURE_ROOT)).toBe(false);
    }
  });

  it('names the same test cases when the same report is ingested twice', async () => {
    const { key, project } = await setup();
    for (const file of [
      'playwright/playwright.json',
      'ctrf/jest-ctrf.json',
      'jest/jest.json',
      'vitest/vitest.json',
      'cucumber/cucumber.json',
    ]) {
      const first = await post(key, `project_id=${project.id}`, fixture(file)).expect(201);
      const second = await post(key, `project_id=${project.id}`, fixture(file)).expect(201);
      expect([file, first.body.created_test_cases > 0, second.body.created_test_cases]).toEqual([
        file,
        true,
        0,
      ]);
      expect(second.body.accepted).toBe(first.body.accepted);
    }
  });

  it('keeps Playwright’s two projects as two slots of each test, retries as attempts', async () => {
    const { key, project } = await setup();
    const res = await post(
      key,
      `project_id=${project.id}&configuration=ignored`,
      fixture('playwright/playwright.json'),
    ).expect(201);
    expect(res.body).toMatchObject({ accepted: 24, created_test_cases: 12 });
    const run = await t.http
      .get(`/api/v1/testruns/${res.body.test_run_id}`)
      .set(withKey(key))
      .expect(200);
    expect(run.body.counts).toMatchObject({
      total: 24,
      passed: 17,
      failed: 5,
      skipped: 2,
      flaky: 2,
    });
    const results = await t.http
      .get(`/api/v1/testruns/${res.body.test_run_id}/results?limit=100&status=failed`)
      .set(withKey(key))
      .expect(200);
    const everyAttempt = results.body.data.filter(
      (result: { attempts: unknown[]; message: string }) =>
        result.message === 'Error: attempt 3 failed',
    );
    expect(
      everyAttempt.map((result: { configuration: string }) => result.configuration).sort(),
    ).toEqual(['chromium', 'firefox']);
    for (const result of everyAttempt) {
      expect(result).toMatchObject({ retries: 2, flaky: false });
      expect(result.attempts.map((attempt: { message: string }) => attempt.message)).toEqual([
        'Error: attempt 1 failed',
        'Error: attempt 2 failed',
      ]);
    }
  });

  it('takes the call’s configuration for the formats that carry none', async () => {
    const { key, project } = await setup();
    const res = await post(
      key,
      `project_id=${project.id}&configuration=${encodeURIComponent(' node 24 ')}`,
      fixture('jest/jest.json'),
    ).expect(201);
    const stored = await storedIn(res.body.test_run_id);
    expect(new Set(stored.map((row) => row.configuration))).toEqual(new Set(['node 24']));
  });

  it('refuses a body of another shape than the format named, naming body', async () => {
    const { key, project } = await setup();
    const res = await post(
      key,
      `project_id=${project.id}&format=ctrf`,
      fixture('playwright/playwright.json'),
    ).expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field: 'body' } });
    expect(res.body.message).toContain('ctrf');
    const junit = await post(
      key,
      `project_id=${project.id}&format=junit`,
      fixture('jest/jest.json'),
    ).expect(400);
    expect(junit.body.details.field).toBe('body');
    await post(key, `project_id=${project.id}&format=jest`, fixture('vitest/vitest.json')).expect(
      201,
    );
  });

  it.each([
    ['an object of no known shape', { hello: 'world' }],
    [
      'a command whose results is not a list',
      { project_id: '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c', results: 'x' },
    ],
    ['an array of other objects (no Cucumber elements)', [{ name: 'feature', status: 'passed' }]],
    ['a bare string', 'a report'],
  ])('refuses %s naming body and listing the formats taken', async (_what, body) => {
    const { key, project } = await setup();
    const res = await post(key, `project_id=${project.id}`, JSON.stringify(body)).expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field: 'body' } });
    for (const format of ['playwright', 'ctrf', 'jest', 'cucumber', 'junit']) {
      expect(res.body.message).toContain(format);
    }
  });

  it('refuses a field of the wrong type with its JSON path, storing nothing', async () => {
    const { key, project } = await setup();
    const report = JSON.parse(fixture('playwright/playwright.json'));
    report.suites[0].suites[0].specs[2].title = 42;
    const res = await post(key, `project_id=${project.id}`, report).expect(400);
    expect(res.body.details.field).toBe('body.suites[0].suites[0].specs[2].title');
    const cucumber = JSON.parse(fixture('cucumber/cucumber.json'));
    cucumber[1].elements[1].steps[0].result = 'passed';
    const bad = await post(key, `project_id=${project.id}`, cucumber).expect(400);
    expect(bad.body.details.field).toBe('body[1].elements[1].steps[0].result');
    const runs = await db.query('SELECT count(*)::int AS n FROM test_run WHERE project_id = $1', [
      project.id,
    ]);
    expect(runs[0].n).toBe(0);
  });

  it('still refuses query parameters beside the JSON command', async () => {
    const { key, project } = await setup();
    const res = await post(key, `format=jest`, {
      project_id: project.id,
      results: [{ automation_id: 'a', status: 'passed' }],
    }).expect(400);
    expect(res.body.details.field).toBe('format');
  });

  // 12,000 tests of about 800 bytes: 9.5 MiB and 132,000 objects and lists, more than a command
  // of 5,000 results may hold (115,002).
  const largeReport = (tests: number) => {
    const specs = Array.from({ length: tests }, (_, i) => ({
      title: `test ${i} ${'x'.repeat(580)}`,
      ok: true,
      tags: [],
      tests: [
        {
          annotations: [],
          projectName: 'chromium',
          status: i % 10 === 0 ? 'unexpected' : 'expected',
          results: [
            {
              status: i % 10 === 0 ? 'failed' : 'passed',
              duration: 12,
              errors: [],
              stdout: [],
              stderr: [],
              attachments: [],
            },
          ],
        },
      ],
    }));
    return JSON.stringify({
      config: {},
      suites: [{ title: 'big.spec.ts', file: 'big.spec.ts', specs }],
    });
  };

  it('admits a report of nearly 10 MiB beyond a command’s bounds, and still refuses such a command', async () => {
    const { key, project } = await setup();
    const body = largeReport(12_000);
    expect(body.length).toBeGreaterThan(9 * 1024 * 1024);
    expect(body.length).toBeLessThan(10 * 1024 * 1024);
    const res = await post(key, `project_id=${project.id}`, body).expect(201);
    expect(res.body.accepted).toBe(12_000);
    const run = await t.http
      .get(`/api/v1/testruns/${res.body.test_run_id}`)
      .set(withKey(key))
      .expect(200);
    expect(run.body.counts).toMatchObject({ total: 12_000, failed: 1_200, passed: 10_800 });
    // The same objects as a command's: refused from the raw bytes, before parsing.
    const command = `{"project_id":"${project.id}","results":[],"report":${body}}`;
    const refused = await post(key, '', command).expect(413);
    expect(refused.body.error).toBe('payload_too_large');
  }, 60_000);
});
