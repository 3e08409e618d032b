import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES, createRun, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';
const SHA = '9FCEB02D0AE598E95DC970B74767F19372D61AF8';

/**
 * The console's runs list (issue 31): a project's runs with their build's number, branch and
 * commit, duration, pass rate, kept verdict and configurations, filtered by name, branch,
 * status and creation time.
 */
describe('GET /internal/v1/projects/{id}/testruns (the runs list with context)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const list = (projectId: string, query: Record<string, string> = {}) =>
    t.http.get(`/internal/v1/projects/${projectId}/testruns`).query(query).set(OPERATOR);

  /** A tenant with a project, two builds on two branches and four runs of two names. */
  async function seeded() {
    const { org, key } = await createTenant(t, [...RUN_SCOPES, 'builds:create']);
    const project = await createProject(t, org.id);
    const build = async (fields: object) =>
      (
        await t.http
          .post('/api/v1/builds')
          .set(withKey(key))
          .send({ project_id: project.id, name: 'web-shop', ...fields })
          .expect(202)
      ).body as { id: string };
    const onMain = await build({ build_number: '311', branch: 'main', commit_sha: SHA });
    const onFeature = await build({ build_number: '312', branch: 'feature/cart' });

    const first = await createRun(t, key, project.id, { name: 'Nightly e2e', build_id: onMain.id });
    await submitResults(
      t,
      key,
      first.id,
      [
        { automation_id: 'cart.adds', status: 'passed', configuration: 'firefox' },
        { automation_id: 'cart.adds', status: 'passed', configuration: 'chromium' },
        { automation_id: 'cart.pays', status: 'failed', configuration: 'chromium' },
        { automation_id: 'cart.skips', status: 'untested' },
      ],
      true,
    ).expect(201);
    const second = await createRun(t, key, project.id, {
      name: 'Nightly e2e',
      build_id: onFeature.id,
    });
    // Two batches: the run keeps the configurations of both, each once.
    for (const configuration of ['webkit', 'chromium', 'webkit'])
      await submitResults(t, key, second.id, [
        { automation_id: `cart.${configuration}`, status: 'passed', configuration },
      ]).expect(201);
    const smoke = await createRun(t, key, project.id, { name: 'Smoke' });
    const later = await createRun(t, key, project.id, { name: 'Nightly e2e', build_id: onMain.id });
    return { org, key, project, onMain, first, second, smoke, later };
  }

  it('lists each run with its build, duration, pass rate, verdict and configurations', async () => {
    const s = await seeded();
    const res = await list(s.project.id).expect(200);
    expect(res.body.pagination).toEqual({ total: 4, limit: 25, offset: 0, has_more: false });
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([
      s.later.id,
      s.smoke.id,
      s.second.id,
      s.first.id,
    ]);
    const first = res.body.data[3];
    expect(first).toMatchObject({
      name: 'Nightly e2e',
      status: 'completed',
      counts: { total: 4, passed: 2, failed: 1, untested: 1 },
      build: {
        id: s.onMain.id,
        name: 'web-shop',
        build_number: '311',
        branch: 'main',
        commit_sha: SHA.toLowerCase(),
      },
      // 2 of 3 executed (the untested one is not).
      pass_rate: 0.6667,
      configurations: ['chromium', 'firefox'],
      gate: { passed: false, evaluated_at: expect.any(String) },
    });
    expect(first.duration_ms).toBeGreaterThanOrEqual(0);
    expect(first.duration_ms).toBe(Date.parse(first.completed_at) - Date.parse(first.created_at));
    expect(res.body.data[2]).toMatchObject({ configurations: ['chromium', 'webkit'] });
    // In progress, nothing executed, no build: no duration, no pass rate, no build.
    expect(res.body.data[1]).toMatchObject({
      name: 'Smoke',
      build: null,
      duration_ms: null,
      pass_rate: null,
      configurations: [],
      gate: null,
    });
  });

  it('filters by run name, branch, status and creation time, together', async () => {
    const s = await seeded();
    const ids = async (query: Record<string, string>) =>
      (await list(s.project.id, query).expect(200)).body.data.map((r: { id: string }) => r.id);

    expect(await ids({ name: 'Nightly e2e' })).toEqual([s.later.id, s.second.id, s.first.id]);
    expect(await ids({ name: 'Nightly' })).toEqual([]);
    expect(await ids({ branch: 'main' })).toEqual([s.later.id, s.first.id]);
    expect(await ids({ branch: 'feature/cart', name: 'Nightly e2e' })).toEqual([s.second.id]);
    expect(await ids({ status: 'completed' })).toEqual([s.first.id]);
    expect(await ids({ name: 'Nightly e2e', status: 'in_progress', branch: 'main' })).toEqual([
      s.later.id,
    ]);

    const all = (await list(s.project.id).expect(200)).body.data as Array<{
      id: string;
      created_at: string;
    }>;
    const at = (id: string) => all.find((r) => r.id === id)!.created_at;
    expect(await ids({ created_after: at(s.second.id) })).toEqual([s.later.id, s.smoke.id]);
    expect(await ids({ created_before: at(s.second.id) })).toEqual([s.first.id]);
    expect(
      await ids({ created_after: at(s.first.id), created_before: at(s.later.id), name: 'Smoke' }),
    ).toEqual([s.smoke.id]);

    const paged = await list(s.project.id, { name: 'Nightly e2e', limit: '2', offset: '2' });
    expect(paged.body.pagination).toEqual({ total: 3, limit: 2, offset: 2, has_more: false });
    expect(paged.body.data.map((r: { id: string }) => r.id)).toEqual([s.first.id]);
  });

  it.each([
    ['status', { status: 'done' }],
    ['name', { name: '' }],
    ['branch', { branch: 'b'.repeat(256) }],
    ['created_after', { created_after: 'yesterday' }],
    ['limit', { limit: '101' }],
  ])('refuses a bad %s: 400 naming it', async (field, query) => {
    const s = await seeded();
    const res = await list(s.project.id, query).expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field } });
  });

  it('lists only the project’s own runs: another organization’s never show', async () => {
    const a = await seeded();
    const b = await seeded();
    const res = await list(b.project.id, { branch: 'main' }).expect(200);
    const ids = res.body.data.map((r: { id: string }) => r.id);
    expect(ids).toEqual([b.later.id, b.first.id]);
    expect(ids).not.toContain(a.first.id);
    expect(res.body.data.every((r: { project_id: string }) => r.project_id === b.project.id)).toBe(
      true,
    );
  });

  it('answers 404 for an unknown project and 401 to an API key (the operator’s route)', async () => {
    await list(UNKNOWN_ID).expect(404);
    const s = await seeded();
    const res = await t.http
      .get(`/internal/v1/projects/${s.project.id}/testruns`)
      .set(withKey(s.key))
      .expect(401);
    expect(res.body).toMatchObject({ error: 'unauthorized' });
  });
});
