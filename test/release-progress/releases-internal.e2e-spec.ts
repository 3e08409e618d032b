import { createProject, createRelease } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { HTTPS, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

/** The internal API's reads the console's release pages use. */
describe('console reads of releases (internal API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  /** A tenant with a project and a release holding two runs: 2 passed, 1 failed, 1 untested. */
  async function releaseWithRuns() {
    const { org, key } = await createTenant(t, [...RUN_SCOPES, 'builds:create']);
    const project = await createProject(t, org.id);
    const release = await createRelease(t, project.id, { version: '1.0' });
    const first = await createRun(t, key, project.id, { name: 'first', release_id: release.id });
    const second = await createRun(t, key, project.id, { name: 'second', release_id: release.id });
    await createRun(t, key, project.id, { name: 'outside the release' });
    const outcome = (title: string, status: string) => ({ title, automation_id: title, status });
    await submitResults(t, key, first.id, [outcome('a', 'passed'), outcome('b', 'failed')]).expect(
      201,
    );
    await submitResults(t, key, second.id, [
      outcome('c', 'passed'),
      outcome('d', 'untested'),
    ]).expect(201);
    return { org, key, project, release, first, second };
  }

  describe('GET /internal/v1/releases/{id}', () => {
    it('answers the release with its progress exactly as the public progress computes it', async () => {
      const { key, project, release } = await releaseWithRuns();
      const res = await t.http.get(`/internal/v1/releases/${release.id}`).set(OPERATOR);
      expect(res.status).toBe(200);
      const publicProgress = await t.http
        .get(`/api/v1/releases/${release.id}/progress`)
        .set(withKey(key))
        .expect(200);
      expect(res.body).toMatchObject({
        id: release.id,
        project_id: project.id,
        version: '1.0',
        status: 'planned',
      });
      expect(res.body.progress).toEqual(publicProgress.body);
      expect(res.body.progress).toMatchObject({
        results: { total: 4, passed: 2, failed: 1, untested: 1 },
        test_runs: { total: 2, in_progress: 2 },
        pass_rate: 0.6667,
        completion_rate: 0.75,
        ready: false,
      });
    });

    it('lists the project’s releases each with its progress', async () => {
      const { project, release } = await releaseWithRuns();
      const empty = await createRelease(t, project.id);
      const res = await t.http.get(`/internal/v1/projects/${project.id}/releases`).set(OPERATOR);
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([empty.id, release.id]);
      expect(res.body.data[0].progress).toMatchObject({
        results: { total: 0 },
        pass_rate: null,
        completion_rate: null,
      });
      expect(res.body.data[1].progress).toMatchObject({ pass_rate: 0.6667 });
    });

    it('counts the failures of cases in quarantine now, which readiness still counts', async () => {
      const { key, project, release, first } = await releaseWithRuns();
      const read = async () =>
        (await t.http.get(`/internal/v1/releases/${release.id}`).set(OPERATOR).expect(200)).body;
      expect((await read()).quarantined_failures).toBe(0);
      const failing = await t.http
        .get(`/api/v1/testruns/${first.id}/results?status=failed`)
        .set(withKey(key))
        .expect(200);
      const caseId = failing.body.data[0].test_case_id as string;
      await t.http
        .put(`/internal/v1/projects/${project.id}/quarantine/${caseId}`)
        .set(OPERATOR)
        .send({ reason: 'known outage' })
        .expect(200);
      const marked = await read();
      expect(marked.quarantined_failures).toBe(1);
      expect(marked.progress).toMatchObject({
        ready: false,
        not_ready_because: ['runs_open', 'failed_results'],
      });
      const list = await t.http
        .get(`/internal/v1/projects/${project.id}/releases`)
        .set(OPERATOR)
        .expect(200);
      expect(list.body.data[0].quarantined_failures).toBe(1);
      // Passed since: no longer a failure, quarantined or not.
      await submitResults(t, key, first.id, [
        { automation_id: 'b', title: 'b', status: 'passed' },
      ]).expect(201);
      expect((await read()).quarantined_failures).toBe(0);
    });

    it('answers 404 for an unknown or malformed id, and 401 without the operator', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        const res = await t.http.get(`/internal/v1/releases/${id}`).set(OPERATOR);
        expect({ id, status: res.status, error: res.body.error }).toEqual({
          id,
          status: 404,
          error: 'not_found',
        });
      }
      const { key, release } = await releaseWithRuns();
      expect((await t.http.get(`/internal/v1/releases/${release.id}`).set(HTTPS)).status).toBe(401);
      expect(
        (await t.http.get(`/internal/v1/releases/${release.id}`).set(withKey(key))).status,
      ).toBe(401);
    });
  });

  describe('GET /internal/v1/releases/{id}/testruns', () => {
    it('pages the release’s runs newest first, and only that release’s', async () => {
      const { release, first, second } = await releaseWithRuns();
      // Another organization's release with a run of its own stays out.
      const other = await releaseWithRuns();
      const all = await t.http.get(`/internal/v1/releases/${release.id}/testruns`).set(OPERATOR);
      expect(all.status).toBe(200);
      expect(all.body.data.map((r: { id: string }) => r.id)).toEqual([second.id, first.id]);
      expect(all.body.pagination).toEqual({ total: 2, limit: 25, offset: 0, has_more: false });
      expect(all.body.data[1].counts).toMatchObject({ total: 2, passed: 1, failed: 1 });
      expect(all.body.data.map((r: { id: string }) => r.id)).not.toContain(other.first.id);

      const page = await t.http
        .get(`/internal/v1/releases/${release.id}/testruns?limit=1&offset=1`)
        .set(OPERATOR);
      expect(page.body.data.map((r: { id: string }) => r.id)).toEqual([first.id]);
      expect(page.body.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });
    });

    it('filters by status and refuses bad paging or status with 400', async () => {
      const { key, release, first, second } = await releaseWithRuns();
      await t.http
        .patch(`/api/v1/testruns/${first.id}`)
        .set(withKey(key))
        .send({ status: 'completed' })
        .expect(200);
      const completed = await t.http
        .get(`/internal/v1/releases/${release.id}/testruns?status=completed`)
        .set(OPERATOR);
      expect(completed.body.data.map((r: { id: string }) => r.id)).toEqual([first.id]);
      const running = await t.http
        .get(`/internal/v1/releases/${release.id}/testruns?status=in_progress`)
        .set(OPERATOR);
      expect(running.body.data.map((r: { id: string }) => r.id)).toEqual([second.id]);
      for (const [query, field] of [
        ['status=finished', 'status'],
        ['limit=0', 'limit'],
        ['offset=-1', 'offset'],
      ]) {
        const res = await t.http
          .get(`/internal/v1/releases/${release.id}/testruns?${query}`)
          .set(OPERATOR);
        expect({
          query,
          status: res.status,
          error: res.body.error,
          field: res.body.details?.field,
        }).toEqual({
          query,
          status: 400,
          error: 'invalid_request',
          field,
        });
      }
    });

    it('answers 404 for an unknown release, and 401 without the operator', async () => {
      const unknown = await t.http
        .get(`/internal/v1/releases/${UNKNOWN_ID}/testruns`)
        .set(OPERATOR);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('not_found');
      const { key, release } = await releaseWithRuns();
      const path = `/internal/v1/releases/${release.id}/testruns`;
      expect((await t.http.get(path).set(withKey(key))).status).toBe(401);
      expect((await t.http.get(path).set(HTTPS)).status).toBe(401);
    });
  });
});
