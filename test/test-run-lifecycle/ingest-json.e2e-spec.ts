import { DataSource } from 'typeorm';
import { createProject, createRelease } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

describe('POST /results/ingest (JSON)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  async function setup() {
    const tenant = await createTenant(t, [...RUN_SCOPES, 'builds:create']);
    const project = await createProject(t, tenant.org.id);
    return { ...tenant, project };
  }
  const ingest = (key: string, body: object) =>
    t.http.post('/api/v1/results/ingest').set(withKey(key)).send(body);

  it('creates the run when no test_run_id is given', async () => {
    const { key, project } = await setup();
    const release = await createRelease(t, project.id);
    const build = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .send({ name: 'b', release_id: release.id });
    const res = await ingest(key, {
      project_id: project.id,
      run_name: 'CI #77',
      build_id: build.body.id,
      release_id: release.id,
      results: [
        { automation_id: 'a', status: 'passed' },
        { automation_id: 'b', status: 'failed' },
      ],
      complete: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      test_run_id: expect.any(String),
      accepted: 2,
      created_test_cases: 2,
    });
    const run = await t.http
      .get(`/api/v1/testruns/${res.body.test_run_id}`)
      .set(withKey(key))
      .expect(200);
    expect(run.body).toMatchObject({
      name: 'CI #77',
      status: 'completed',
      build_id: build.body.id,
      release_id: release.id,
      source: 'api',
      counts: { total: 2, passed: 1, failed: 1 },
    });
  });

  it('adds to an existing run, whose project_id may be left out', async () => {
    const { key, project } = await setup();
    const run = await createRun(t, key, project.id);
    const res = await ingest(key, {
      test_run_id: run.id,
      results: [{ automation_id: 'a', status: 'blocked' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.test_run_id).toBe(run.id);
    const same = await ingest(key, {
      test_run_id: run.id,
      project_id: project.id,
      results: [{ automation_id: 'b', status: 'passed' }],
    });
    expect(same.status).toBe(201);
    const counts = (await t.http.get(`/api/v1/testruns/${run.id}`).set(withKey(key))).body.counts;
    expect(counts).toMatchObject({ total: 2, blocked: 1, passed: 1 });
  });

  it.each([
    [
      'no project_id and no test_run_id',
      () => ({ results: [{ automation_id: 'a', status: 'passed' }] }),
      'project_id',
    ],
    [
      'an unknown project',
      () => ({ project_id: UNKNOWN_ID, results: [{ automation_id: 'a', status: 'passed' }] }),
      'project_id',
    ],
    [
      'an unknown run',
      () => ({ test_run_id: UNKNOWN_ID, results: [{ automation_id: 'a', status: 'passed' }] }),
      'test_run_id',
    ],
    // Without a results list the body is not the command, and no report either (CONTRACT §14).
    ['no results', (p: string) => ({ project_id: p }), 'body'],
    [
      'a bad item',
      (p: string) => ({ project_id: p, results: [{ automation_id: 'a', status: 'ok' }] }),
      'results[0].status',
    ],
    [
      'a bad run name',
      (p: string) => ({
        project_id: p,
        run_name: '',
        results: [{ automation_id: 'a', status: 'passed' }],
      }),
      'run_name',
    ],
    [
      'an unknown field',
      (p: string) => ({
        project_id: p,
        results: [{ automation_id: 'a', status: 'passed' }],
        shard: 1,
      }),
      'shard',
    ],
  ])('refuses %s naming the field, creating nothing', async (_name, body, field) => {
    const { org, key, project } = await setup();
    const res = await ingest(key, body(project.id));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      message: expect.any(String),
      details: { field, errors: expect.arrayContaining([expect.objectContaining({ field })]) },
    });
    const db = t.app.get(DataSource);
    const runs = await db.query(
      'SELECT count(*)::int AS n FROM test_run WHERE organization_id = $1',
      [org.id],
    );
    expect(runs[0].n).toBe(0);
  });

  it('refuses a project_id that differs from the run’s, and another organization’s run', async () => {
    const { key, project, org } = await setup();
    const run = await createRun(t, key, project.id);
    const other = await createProject(t, org.id);
    const res = await ingest(key, {
      test_run_id: run.id,
      project_id: other.id,
      results: [{ automation_id: 'a', status: 'passed' }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field: 'project_id' } });
    const stranger = await setup();
    const foreign = await ingest(stranger.key, {
      test_run_id: run.id,
      results: [{ automation_id: 'a', status: 'passed' }],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({
      error: 'invalid_request',
      details: { field: 'test_run_id' },
    });
    // Neither call stored anything in the run.
    const after = await t.http.get(`/api/v1/testruns/${run.id}`).set(withKey(key)).expect(200);
    expect(after.body.counts.total).toBe(0);
  });

  it('refuses results into a completed run with 409', async () => {
    const { key, project } = await setup();
    const run = await createRun(t, key, project.id);
    await t.http
      .patch(`/api/v1/testruns/${run.id}`)
      .set(withKey(key))
      .send({ status: 'completed' })
      .expect(200);
    const res = await ingest(key, {
      test_run_id: run.id,
      results: [{ automation_id: 'a', status: 'passed' }],
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'conflict',
      message: expect.any(String),
      details: { reason: 'run_completed' },
    });
    const after = await t.http.get(`/api/v1/testruns/${run.id}`).set(withKey(key)).expect(200);
    expect(after.body).toMatchObject({ status: 'completed', counts: { total: 0 } });
    const cases = await t.http
      .get(`/api/v1/projects/${project.id}/testcases`)
      .set(withKey(key))
      .expect(200);
    expect(cases.body.pagination.total).toBe(0);
  });

  it('refuses JUnit parameters in the query of a JSON body', async () => {
    const { key, project } = await setup();
    const res = await t.http
      .post(`/api/v1/results/ingest?project_id=${project.id}`)
      .set(withKey(key))
      .send({ project_id: project.id, results: [{ automation_id: 'a', status: 'passed' }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field: 'project_id' } });
  });
});

describe('GET /releases/{id}/progress', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('sums each case once, by its latest result across the release’s runs', async () => {
    const { org, key } = await createTenant(t, [...RUN_SCOPES, 'builds:create']);
    const project = await createProject(t, org.id);
    const release = await createRelease(t, project.id);
    const progress = async () =>
      (await t.http.get(`/api/v1/releases/${release.id}/progress`).set(withKey(key)).expect(200))
        .body;

    expect(await progress()).toEqual({
      release_id: release.id,
      status: 'planned',
      builds: 0,
      test_runs: { total: 0, in_progress: 0, submitted: 0, completed: 0 },
      results: { total: 0, passed: 0, failed: 0, blocked: 0, skipped: 0, retest: 0, untested: 0 },
      pass_rate: null,
      completion_rate: null,
      ready: false,
      not_ready_because: ['no_runs'],
    });

    await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .send({ name: 'b1', release_id: release.id });
    await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .send({ name: 'b2', release_id: release.id });
    await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'not in the release' });

    // Run 1: A passed, B failed, C untested, D skipped.
    const run1 = await createRun(t, key, project.id, { release_id: release.id });
    await submitResults(t, key, run1.id, [
      { automation_id: 'A', status: 'passed' },
      { automation_id: 'B', status: 'failed' },
      { automation_id: 'C', status: 'untested' },
      { automation_id: 'D', status: 'skipped' },
    ]);
    // Run 2, later: B passed (fixes B), E blocked, C still untested here too.
    const run2 = await createRun(t, key, project.id, { release_id: release.id });
    await submitResults(t, key, run2.id, [
      { automation_id: 'B', status: 'passed' },
      { automation_id: 'E', status: 'blocked' },
    ]);
    // A run outside the release does not count.
    const outside = await createRun(t, key, project.id);
    await submitResults(t, key, outside.id, [{ automation_id: 'A', status: 'failed' }]);

    // Cases A..E once each: passed A, B; skipped D; blocked E; untested C.
    // executed = 4 (all but C); pass_rate = 2/4 = 0.5; completion_rate = 4/5 = 0.8.
    expect(await progress()).toEqual({
      release_id: release.id,
      status: 'planned',
      builds: 2,
      test_runs: { total: 2, in_progress: 2, submitted: 0, completed: 0 },
      results: { total: 5, passed: 2, failed: 0, blocked: 1, skipped: 1, retest: 0, untested: 1 },
      pass_rate: 0.5,
      completion_rate: 0.8,
      ready: false,
      not_ready_because: ['runs_open', 'blocked_results'],
    });

    // E is retested and passes; C runs and passes; both runs complete → ready.
    await submitResults(t, key, run2.id, [
      { automation_id: 'E', status: 'passed' },
      { automation_id: 'C', status: 'passed' },
    ]);
    await t.http
      .patch(`/api/v1/testruns/${run1.id}`)
      .set(withKey(key))
      .send({ status: 'submitted' })
      .expect(200);
    let now = await progress();
    expect(now.test_runs).toEqual({ total: 2, in_progress: 1, submitted: 1, completed: 0 });
    expect(now.ready).toBe(false);
    await t.http
      .patch(`/api/v1/testruns/${run1.id}`)
      .set(withKey(key))
      .send({ status: 'completed' })
      .expect(200);
    await t.http
      .patch(`/api/v1/testruns/${run2.id}`)
      .set(withKey(key))
      .send({ status: 'completed' })
      .expect(200);
    now = await progress();
    // A, B, C, E passed; D skipped: pass_rate 4/5 = 0.8, completion 5/5 = 1.
    expect(now).toMatchObject({
      test_runs: { total: 2, in_progress: 0, submitted: 0, completed: 2 },
      results: { total: 5, passed: 4, failed: 0, blocked: 0, skipped: 1, retest: 0, untested: 0 },
      pass_rate: 0.8,
      completion_rate: 1,
      ready: true,
      not_ready_because: [],
    });
  });

  it('rounds rates to 4 decimals', async () => {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const release = await createRelease(t, project.id);
    const run = await createRun(t, key, project.id, { release_id: release.id });
    await submitResults(t, key, run.id, [
      { automation_id: 'a', status: 'passed' },
      { automation_id: 'b', status: 'passed' },
      { automation_id: 'c', status: 'failed' },
    ]);
    const body = (await t.http.get(`/api/v1/releases/${release.id}/progress`).set(withKey(key)))
      .body;
    expect(body.pass_rate).toBe(0.6667);
    expect(body.ready).toBe(false);
  });

  it('answers 404 for another organization’s release and needs testruns:read', async () => {
    const owner = await createTenant(t, RUN_SCOPES);
    const release = await createRelease(t, (await createProject(t, owner.org.id)).id);
    const stranger = await createTenant(t, RUN_SCOPES);
    for (const id of [release.id, UNKNOWN_ID, 'x']) {
      const res = await t.http.get(`/api/v1/releases/${id}/progress`).set(withKey(stranger.key));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: 'not_found',
        message: expect.any(String),
        details: { resource: 'release' },
      });
    }
    const { createApiKey } = await import('../factories/organizations.js');
    const builds = await createApiKey(t, owner.org.id, ['builds:read']);
    const res = await t.http
      .get(`/api/v1/releases/${release.id}/progress`)
      .set(withKey(builds.key));
    expect(res.status).toBe(403);
    expect(res.body.details.required_scopes).toEqual(['testruns:read']);
  });
});
