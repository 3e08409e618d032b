import { createProject, createRelease, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

// The route's answer, whole. The definitions of CONTRACT §6 "Release progress" (which result
// is a case's current one across runs, what counts as executed, when `ready` holds) are at the
// service tier (test/release-progress/progress.medium-spec.ts).
describe('GET /releases/{id}/progress', () => {
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
    const run = (fields: object = {}) =>
      createRun(t, key, project.id, { release_id: rel.id, ...fields });
    return { key, project, release: rel, progress, complete, run };
  }

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
});
