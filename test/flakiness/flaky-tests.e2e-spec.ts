import { DataSource } from 'typeorm';
import { createProject, createTestCase, type TestCaseFixture } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

const FLAKY_SCOPES = [...RUN_SCOPES, 'builds:create', 'quarantine:manage'];
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
async function flakyProject(t: TestApp, names: string[], scopes = FLAKY_SCOPES) {
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
 * runs; each is submitted unless `status` says otherwise, on a build of `branch` when given.
 * Runs are dated a minute apart by SQL, so their order never rests on the clock's resolution.
 */
async function runsOf(
  t: TestApp,
  key: string,
  projectId: string,
  sequences: Record<string, string>,
  options: { branch?: string; status?: 'in_progress' | 'submitted' | 'completed' } = {},
): Promise<void> {
  const length = Math.max(...Object.values(sequences).map((s) => s.length));
  for (let i = 0; i < length; i++) {
    const results = Object.entries(sequences)
      .filter(([, text]) => text[i] in OUTCOMES)
      .map(([name, text]) => ({ automation_id: name, ...OUTCOMES[text[i]] }));
    let buildId: string | undefined;
    if (options.branch !== undefined) {
      const build = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .send({ name: 'build', project_id: projectId, branch: options.branch });
      expect(build.status).toBeLessThan(300);
      buildId = build.body.id;
    }
    const run = await createRun(t, key, projectId, buildId ? { build_id: buildId } : {});
    expect((await submitResults(t, key, run.id, results)).status).toBe(201);
    runClock += 60_000;
    await t.app
      .get(DataSource)
      .query('UPDATE test_run SET created_at = $2 WHERE id = $1', [run.id, new Date(runClock)]);
    const status = options.status ?? 'submitted';
    if (status !== 'in_progress')
      await t.http
        .patch(`/api/v1/testruns/${run.id}`)
        .set(withKey(key))
        .send({ status })
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

  const summary = (items: FlakyItem[]) =>
    items.map((i) => [i.automation_id, i.executions, i.flips, i.flip_rate, i.retried_passes]);

  describe('over eleven runs', () => {
    let fixture: Awaited<ReturnType<typeof flakyProject>>;
    beforeAll(async () => {
      fixture = await flakyProject(t, ['a', 'b', 'c', 'd', 'e', 'f', 'h', 'i']);
      await runsOf(t, fixture.key, fixture.project.id, {
        a: 'PFPFPFPFPFP', // 10 flips in 11
        b: 'PPPPPPPPPPF', // 1 flip in 11: exactly 0.1
        c: 'PPPPPPPPPPP', // steady
        d: 'FFFFFFFFFFF', // steadily failing: not flaky
        e: 'PPPPPRPPPPP', // one pass after retries
        f: 'FPF........', // too few executions by default
        h: 'PFSSSSSSPFP', // skipped results are not executions
        i: 'FPFPPPPPPPR', // 3 flips in 11, and a retried pass
      });
      // Neither an open run nor a completed one of the other project counts.
      await runsOf(t, fixture.key, fixture.project.id, { a: 'F' }, { status: 'in_progress' });
    });

    it('counts executions, flips, flip rate and retried passes, most flaky first', async () => {
      const body = await flaky(fixture.key, fixture.project.id);
      expect(summary(body.data)).toEqual([
        ['a', 11, 10, 1, 0],
        ['h', 5, 4, 1, 0],
        ['i', 11, 3, 0.3, 1],
        ['b', 11, 1, 0.1, 0],
        ['e', 11, 0, 0, 1],
      ]);
      expect(body.data[0]).toEqual({
        test_case_id: fixture.cases.a.id,
        configuration: null,
        automation_id: 'a',
        title: 'Case a',
        executions: 11,
        flips: 10,
        flip_rate: 1,
        retried_passes: 0,
        last_status: 'passed',
        quarantined: false,
      });
      expect(body.data.map((i) => i.last_status)).toEqual([
        'passed',
        'passed',
        'passed',
        'failed',
        'passed',
      ]);
      expect(body.pagination).toEqual({ total: 5, limit: 25, offset: 0, has_more: false });
    });

    it('looks only at each case’s last `window` results', async () => {
      const body = await flaky(fixture.key, fixture.project.id, '?window=5');
      expect(summary(body.data)).toEqual([
        ['a', 5, 4, 1, 0],
        ['h', 5, 4, 1, 0],
        ['b', 5, 1, 0.25, 0],
        ['i', 5, 0, 0, 1],
      ]);
    });

    it('lists cases with `min_executions` or more', async () => {
      const body = await flaky(fixture.key, fixture.project.id, '?min_executions=2&window=3');
      expect(summary(body.data)).toEqual([
        ['a', 3, 2, 1, 0],
        ['f', 3, 2, 1, 0],
        ['h', 3, 2, 1, 0],
        ['b', 3, 1, 0.5, 0],
        ['i', 3, 0, 0, 1],
      ]);
      const few = await flaky(fixture.key, fixture.project.id, '?min_executions=12');
      expect(few.data).toEqual([]);
    });

    it('rounds the flip rate to four decimals', async () => {
      const body = await flaky(fixture.key, fixture.project.id, '?window=4&min_executions=4');
      // i's last four: P P P R (no flip, one retried pass); b's: P P P F.
      expect(summary(body.data).find(([name]) => name === 'b')).toEqual(['b', 4, 1, 0.3333, 0]);
    });

    it('pages as every list does', async () => {
      const page = await flaky(fixture.key, fixture.project.id, '?limit=2&offset=1');
      expect(page.data.map((i) => i.automation_id)).toEqual(['h', 'i']);
      expect(page.pagination).toEqual({ total: 5, limit: 2, offset: 1, has_more: true });
      const past = await flaky(fixture.key, fixture.project.id, '?offset=10');
      expect(past).toEqual({
        data: [],
        pagination: { total: 5, limit: 25, offset: 10, has_more: false },
      });
    });

    it('flags cases in quarantine', async () => {
      const { key, project, cases } = fixture;
      await t.http
        .put(`/api/v1/projects/${project.id}/quarantine/${cases.i.id}`)
        .set(withKey(key))
        .send({ reason: 'flaky on CI' })
        .expect(200);
      const body = await flaky(key, project.id);
      expect(body.data.filter((i) => i.quarantined).map((i) => i.automation_id)).toEqual(['i']);
    });
  });

  it('looks only at runs whose build is on `branch`', async () => {
    const { key, project } = await flakyProject(t, ['x', 'y']);
    await runsOf(t, key, project.id, { x: 'PPPPP', y: 'PFPFP' }, { branch: 'main' });
    await runsOf(t, key, project.id, { x: 'FPFPF', y: 'PPPPP' }, { branch: 'feature/z' });
    await runsOf(t, key, project.id, { x: 'FPFPF' });
    expect(summary((await flaky(key, project.id, '?branch=main')).data)).toEqual([
      ['y', 5, 4, 1, 0],
    ]);
    expect(summary((await flaky(key, project.id, '?branch=feature%2Fz')).data)).toEqual([
      ['x', 5, 4, 1, 0],
    ]);
    expect(summary((await flaky(key, project.id, '?window=15')).data)).toEqual([
      ['x', 15, 9, 0.6429, 0],
      ['y', 10, 4, 0.4444, 0],
    ]);
    expect((await flaky(key, project.id, '?branch=none')).data).toEqual([]);
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
