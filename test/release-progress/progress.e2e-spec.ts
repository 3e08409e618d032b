import { createProject, createRelease, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

// The definitions of CONTRACT §6 "Release progress", one per test: which result is a case's
// current one across runs, what counts as executed, when rates are null, when `ready` holds.
describe('GET /releases/{id}/progress definitions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  async function release() {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const rel = await createRelease(t, project.id);
    const progress = async () =>
      (await t.http.get(`/api/v1/releases/${rel.id}/progress`).set(withKey(key)).expect(200)).body;
    const complete = (runId: string) =>
      t.http
        .patch(`/api/v1/testruns/${runId}`)
        .set(withKey(key))
        .send({ status: 'completed' })
        .expect(200);
    const reopen = (runId: string) =>
      t.http
        .patch(`/api/v1/testruns/${runId}`)
        .set(withKey(key))
        .send({ status: 'in_progress' })
        .expect(200);
    const run = (fields: object = {}) =>
      createRun(t, key, project.id, { release_id: rel.id, ...fields });
    const submit = async (runId: string, results: object[]) =>
      (await submitResults(t, key, runId, results)).status;
    return { key, project, release: rel, progress, complete, reopen, run, submit };
  }

  it('counts the result stored last across runs, even when it went into the older run', async () => {
    const r = await release();
    const older = await r.run({ name: 'older' });
    const newer = await r.run({ name: 'newer' });
    expect(await r.submit(newer.id, [{ automation_id: 'A', status: 'failed' }])).toBe(201);
    // Stored after the newer run's result, though into the older run and with an earlier
    // executed_at: storage time decides, not the run's age nor when the test ran.
    expect(
      await r.submit(older.id, [
        { automation_id: 'A', status: 'passed', executed_at: '2020-01-01T00:00:00Z' },
      ]),
    ).toBe(201);
    expect((await r.progress()).results).toEqual({
      total: 1,
      passed: 1,
      failed: 0,
      blocked: 0,
      skipped: 0,
      retest: 0,
      untested: 0,
    });

    // And the other way round: a later failure in the newer run takes over again.
    expect(await r.submit(newer.id, [{ automation_id: 'A', status: 'failed' }])).toBe(201);
    expect(await r.progress()).toMatchObject({
      results: { total: 1, passed: 0, failed: 1 },
      pass_rate: 0,
      completion_rate: 1,
    });
  });

  it('is not ready while a current result is failed, though every run is completed', async () => {
    const r = await release();
    const run = await r.run();
    await r.submit(run.id, [
      { automation_id: 'A', status: 'passed' },
      { automation_id: 'B', status: 'failed' },
    ]);
    await r.complete(run.id);
    expect(await r.progress()).toMatchObject({
      test_runs: { total: 1, in_progress: 0, submitted: 0, completed: 1 },
      results: { total: 2, passed: 1, failed: 1 },
      pass_rate: 0.5,
      ready: false,
      not_ready_because: ['failed_results'],
    });

    // B passes in a second run: once that run completes too, the release is ready.
    const rerun = await r.run();
    await r.submit(rerun.id, [{ automation_id: 'B', status: 'passed' }]);
    // The rerun is still in progress; B's current result is its pass there.
    expect(await r.progress()).toMatchObject({ ready: false, not_ready_because: ['runs_open'] });
    await r.complete(rerun.id);
    expect(await r.progress()).toMatchObject({
      test_runs: { total: 2, completed: 2 },
      results: { total: 2, passed: 2, failed: 0 },
      pass_rate: 1,
      ready: true,
      not_ready_because: [],
    });
  });

  it('says what keeps it from ready, every reason in the contract’s order, none when ready', async () => {
    const r = await release();
    const reasons = async () => (await r.progress()).not_ready_because;
    expect(await reasons()).toEqual(['no_runs']);
    const run = await r.run();
    expect(await reasons()).toEqual(['runs_open']);
    await r.submit(run.id, [
      { automation_id: 'A', status: 'blocked' },
      { automation_id: 'B', status: 'failed' },
    ]);
    expect(await reasons()).toEqual(['runs_open', 'failed_results', 'blocked_results']);
    await r.complete(run.id);
    expect(await reasons()).toEqual(['failed_results', 'blocked_results']);
    // A reopened run is open again until it completes again.
    await r.reopen(run.id);
    await r.submit(run.id, [{ automation_id: 'B', status: 'passed' }]);
    expect(await reasons()).toEqual(['runs_open', 'blocked_results']);
    await r.submit(run.id, [{ automation_id: 'A', status: 'passed' }]);
    await r.complete(run.id);
    expect(await r.progress()).toMatchObject({ ready: true, not_ready_because: [] });
  });

  it('is not ready while a current result is blocked', async () => {
    const r = await release();
    const run = await r.run();
    await r.submit(run.id, [{ automation_id: 'A', status: 'blocked' }]);
    await r.complete(run.id);
    expect(await r.progress()).toMatchObject({
      results: { total: 1, blocked: 1 },
      pass_rate: 0,
      ready: false,
      not_ready_because: ['blocked_results'],
    });
  });

  it('has a null pass_rate and a zero completion_rate when every case is untested', async () => {
    const r = await release();
    const cases = [await createTestCase(t, r.project.id), await createTestCase(t, r.project.id)];
    const run = await r.run({ test_case_ids: cases.map((c) => c.id) });
    await r.complete(run.id);
    // Nothing failed or blocked and every run completed: ready, though nothing was executed.
    expect(await r.progress()).toEqual({
      release_id: r.release.id,
      status: 'planned',
      builds: 0,
      test_runs: { total: 1, in_progress: 0, submitted: 0, completed: 1 },
      results: { total: 2, passed: 0, failed: 0, blocked: 0, skipped: 0, retest: 0, untested: 2 },
      pass_rate: null,
      completion_rate: 0,
      ready: true,
      not_ready_because: [],
    });
  });

  it('counts retest as executed, and a retest does not stop the release being ready', async () => {
    const r = await release();
    const run = await r.run();
    await r.submit(run.id, [
      { automation_id: 'A', status: 'retest' },
      { automation_id: 'B', status: 'passed' },
      { automation_id: 'C', status: 'untested' },
    ]);
    await r.complete(run.id);
    // executed = A and B (not C): pass_rate 1/2, completion_rate 2/3 rounded to 4 decimals.
    expect(await r.progress()).toMatchObject({
      results: { total: 3, passed: 1, retest: 1, untested: 1 },
      pass_rate: 0.5,
      completion_rate: 0.6667,
      ready: true,
    });
  });

  it('counts a case once when an earlier untested row of another run is its older result', async () => {
    const r = await release();
    const tc = await createTestCase(t, r.project.id);
    // Pre-populated as untested in the first run, executed later in a second run.
    await r.run({ test_case_ids: [tc.id] });
    const executed = await r.run();
    await r.submit(executed.id, [{ test_case_id: tc.id, status: 'skipped' }]);
    expect(await r.progress()).toMatchObject({
      test_runs: { total: 2, in_progress: 2 },
      results: { total: 1, skipped: 1, untested: 0 },
      pass_rate: 0,
      completion_rate: 1,
      ready: false,
    });
  });
});
