import { DataSource } from 'typeorm';
import { createProject, createTestCase, type TestCaseFixture } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

/** What a run records for a case: `P` passed, `F` failed, `S` skipped, `R` passed on retry. */
const OUTCOMES: Record<string, object> = {
  P: { status: 'passed' },
  F: { status: 'failed' },
  S: { status: 'skipped' },
  R: { status: 'passed', retries: 2 },
};

let runClock = Date.UTC(2026, 0, 1);

/** A tenant with a project whose test cases have the automation ids `names`. */
async function flakyProject(t: TestApp, names: string[], scopes = RUN_SCOPES) {
  const tenant = await createTenant(t, scopes);
  const project = await createProject(t, tenant.org.id);
  const cases: Record<string, TestCaseFixture> = {};
  for (const name of names)
    cases[name] = await createTestCase(t, project.id, {
      automation_id: name,
      title: `Case ${name}`,
    });
  return { ...tenant, project, cases };
}

/**
 * One run per column of the sequences (`.`: no result), e.g. `{a: 'PF', b: 'FF'}` makes two
 * runs, each submitted. Runs are dated a minute apart by SQL, so their order never rests on the clock's resolution.
 */
async function runsOf(
  t: TestApp,
  key: string,
  projectId: string,
  sequences: Record<string, string>,
): Promise<void> {
  const length = Math.max(...Object.values(sequences).map((s) => s.length));
  for (let i = 0; i < length; i++) {
    const results = Object.entries(sequences)
      .filter(([, text]) => text[i] in OUTCOMES)
      .map(([name, text]) => ({ automation_id: name, ...OUTCOMES[text[i]] }));
    const run = await createRun(t, key, projectId);
    expect((await submitResults(t, key, run.id, results)).status).toBe(201);
    runClock += 60_000;
    await t.app
      .get(DataSource)
      .query('UPDATE test_run SET created_at = $2 WHERE id = $1', [run.id, new Date(runClock)]);
    await t.http
      .patch(`/api/v1/testruns/${run.id}`)
      .set(withKey(key))
      .send({ status: 'submitted' })
      .expect(200);
  }
}

interface FlakyItem {
  test_case_id: string;
  automation_id: string;
  executions: number;
  flips: number;
  flip_rate: number;
  retried_passes: number;
  last_status: string;
  quarantined: boolean;
}

describe('GET /projects/{id}/flaky-tests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  async function flaky(key: string, projectId: string, query = '') {
    const res = await t.http
      .get(`/api/v1/projects/${projectId}/flaky-tests${query}`)
      .set(withKey(key))
      .expect(200);
    return res.body as { data: FlakyItem[]; pagination: Record<string, unknown> };
  }

  // The list's computation over seeded runs (window, min_executions, rounding, paging, branch,
  // quarantine) is at the service tier (test/flakiness/flaky-tests.medium-spec.ts).
  it('answers the flaky cases in the contract’s shape, paged', async () => {
    const { key, project, cases } = await flakyProject(t, ['a', 'c']);
    await runsOf(t, key, project.id, { a: 'PFPFP', c: 'PPPPP' });
    const body = await flaky(key, project.id);
    expect(body).toEqual({
      data: [
        {
          test_case_id: cases.a.id,
          configuration: null,
          automation_id: 'a',
          title: 'Case a',
          executions: 5,
          flips: 4,
          flip_rate: 1,
          retried_passes: 0,
          last_status: 'passed',
          quarantined: false,
        },
      ],
      pagination: { total: 1, limit: 25, offset: 0, has_more: false },
    });
  });

  it.each([
    ['window=1', 'window'],
    ['window=201', 'window'],
    ['window=abc', 'window'],
    ['window=2.5', 'window'],
    ['min_executions=1', 'min_executions'],
    ['min_executions=201', 'min_executions'],
    ['min_executions=', 'min_executions'],
    ['limit=0', 'limit'],
    ['offset=-1', 'offset'],
    ['branch=', 'branch'],
  ])('answers 400 naming the parameter for %s', async (query, field) => {
    const { key, project } = await flakyProject(t, []);
    const res = await t.http
      .get(`/api/v1/projects/${project.id}/flaky-tests?${query}`)
      .set(withKey(key))
      .expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field } });
  });

  it('needs results:read, and answers 404 for another organization’s project', async () => {
    const { project } = await flakyProject(t, []);
    const other = await flakyProject(t, []);
    const limited = await createTenant(t, ['projects:read']);
    await t.http
      .get(`/api/v1/projects/${project.id}/flaky-tests`)
      .set(withKey(limited.key))
      .expect(403)
      .expect((res) => expect(res.body.details.required_scopes).toEqual(['results:read']));
    for (const id of [project.id, UNKNOWN_ID, 'not-a-uuid'])
      await t.http
        .get(`/api/v1/projects/${id}/flaky-tests`)
        .set(withKey(other.key))
        .expect(404)
        .expect((res) => expect(res.body.error).toBe('not_found'));
  });
});
