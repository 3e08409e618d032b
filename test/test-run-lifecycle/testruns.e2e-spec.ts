import { DataSource } from 'typeorm';
import { TestRun } from '../../src/testruns/entities/test-run.entity.js';
import { TEST_RUN_COLUMNS } from '../../src/testruns/test-runs.repository.js';
import { createProject, createRelease, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';
const ZERO = {
  total: 0,
  passed: 0,
  failed: 0,
  blocked: 0,
  skipped: 0,
  retest: 0,
  untested: 0,
  flaky: 0,
};

describe('test runs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  async function tenantWithProject(scopes = RUN_SCOPES) {
    const tenant = await createTenant(t, scopes);
    const project = await createProject(t, tenant.org.id);
    return { ...tenant, project };
  }

  describe('POST /testruns', () => {
    it('creates an in-progress run with zero counts', async () => {
      const { key, project } = await tenantWithProject();
      const res = await t.http
        .post('/api/v1/testruns')
        .set(withKey(key))
        .send({ project_id: project.id, name: 'Nightly' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        project_id: project.id,
        name: 'Nightly',
        build_id: null,
        release_id: null,
        status: 'in_progress',
        source: 'api',
        counts: ZERO,
        submitted_at: null,
        completed_at: null,
        gate: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    });

    it('pre-populates test_case_ids as untested results, with build and release', async () => {
      const { key, project } = await tenantWithProject([...RUN_SCOPES, 'builds:create']);
      const cases = [await createTestCase(t, project.id), await createTestCase(t, project.id)];
      const release = await createRelease(t, project.id);
      const build = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .send({ name: 'b', release_id: release.id });
      const run = await createRun(t, key, project.id, {
        test_case_ids: cases.map((c) => c.id),
        build_id: build.body.id,
        release_id: release.id,
      });
      expect(run).toMatchObject({
        build_id: build.body.id,
        release_id: release.id,
        counts: { ...ZERO, total: 2, untested: 2 },
      });
      const results = await t.http
        .get(`/api/v1/testruns/${run.id}/results`)
        .set(withKey(key))
        .expect(200);
      expect(
        results.body.data
          .map((r: { status: string; test_case_id: string }) => [r.test_case_id, r.status])
          .sort(),
      ).toEqual(cases.map((c) => [c.id, 'untested']).sort());
    });

    it.each([
      [{ name: 'x' }, 'project_id'],
      [{ project_id: UNKNOWN_ID, name: 'x' }, 'project_id'],
      [{ project_id: 'PROJECT', name: '' }, 'name'],
      [{ project_id: 'PROJECT', name: 'x', build_id: UNKNOWN_ID }, 'build_id'],
      [{ project_id: 'PROJECT', name: 'x', release_id: UNKNOWN_ID }, 'release_id'],
      [{ project_id: 'PROJECT', name: 'x', test_case_ids: [UNKNOWN_ID] }, 'test_case_ids[0]'],
      [{ project_id: 'PROJECT', name: 'x', test_case_ids: ['nope'] }, 'test_case_ids'],
      [{ project_id: 'PROJECT', name: 'x', status: 'completed' }, 'status'],
    ])('refuses %j naming %s, creating nothing', async (body, field) => {
      const { org, key, project } = await tenantWithProject();
      const filled = JSON.parse(JSON.stringify(body).replace('PROJECT', project.id));
      const res = await t.http.post('/api/v1/testruns').set(withKey(key)).send(filled);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
        details: { field, errors: expect.arrayContaining([expect.objectContaining({ field })]) },
      });
      const runs = await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM test_run WHERE organization_id = $1', [org.id]);
      expect(runs[0].n).toBe(0);
    });

    it('refuses another organization’s project, and a release of another project', async () => {
      const { org, key, project } = await tenantWithProject();
      const other = await tenantWithProject();
      const foreign = await t.http
        .post('/api/v1/testruns')
        .set(withKey(key))
        .send({ project_id: other.project.id, name: 'x' });
      expect(foreign.status).toBe(400);
      expect(foreign.body.details.field).toBe('project_id');
      // A release of the caller's own organization, but of another project.
      const otherProject = await createProject(t, org.id);
      const release = await createRelease(t, otherProject.id);
      const res = await t.http
        .post('/api/v1/testruns')
        .set(withKey(key))
        .send({ project_id: project.id, name: 'x', release_id: release.id });
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe('release_id');
    });

    it('needs testruns:create', async () => {
      const { key, project } = await tenantWithProject(['testruns:read']);
      const res = await t.http
        .post('/api/v1/testruns')
        .set(withKey(key))
        .send({ project_id: project.id, name: 'x' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        message: expect.any(String),
        details: { required_scopes: ['testruns:create'] },
      });
    });

    it('creates runs from the UI with source "ui"', async () => {
      const { key, project } = await tenantWithProject();
      const res = await t.http
        .post(`/internal/v1/projects/${project.id}/testruns`)
        .set(OPERATOR)
        .send({ name: 'Manual pass' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        source: 'ui',
        status: 'in_progress',
        project_id: project.id,
      });
      // source is not a filter of GET /testruns (CONTRACT §5): an unknown parameter.
      const listed = await t.http.get('/api/v1/testruns?source=ui').set(withKey(key));
      expect(listed.status).toBe(400);
      expect(listed.body.details.field).toBe('source');
      const read = await t.http
        .get(`/api/v1/testruns/${res.body.id}`)
        .set(withKey(key))
        .expect(200);
      expect(read.body).toEqual(res.body);
      await t.http
        .post(`/internal/v1/projects/${UNKNOWN_ID}/testruns`)
        .set(OPERATOR)
        .send({ name: 'x' })
        .expect(404);
    });
  });

  describe('PATCH /testruns/{id}', () => {
    const patch = (key: string, id: string, status: string) =>
      t.http.patch(`/api/v1/testruns/${id}`).set(withKey(key)).send({ status });
    const read = async (key: string, id: string) =>
      (await t.http.get(`/api/v1/testruns/${id}`).set(withKey(key)).expect(200)).body;

    it('moves in_progress → submitted → completed; a completed run moves only back to in_progress', async () => {
      const { key, project } = await tenantWithProject();
      const run = await createRun(t, key, project.id);
      const submitted = await patch(key, run.id, 'submitted');
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({
        id: run.id,
        status: 'submitted',
        submitted_at: expect.stringMatching(/Z$/),
        completed_at: null,
      });
      const again = await patch(key, run.id, 'submitted');
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        error: 'conflict',
        message: expect.any(String),
        details: { reason: 'invalid_transition' },
      });
      // The refused change left the run as it was.
      expect(await read(key, run.id)).toEqual(submitted.body);
      // A submitted run still takes results.
      await expect(
        (await submitResults(t, key, run.id, [{ automation_id: 'a', status: 'passed' }])).status,
      ).toBe(201);
      const completed = await patch(key, run.id, 'completed');
      expect(completed.status).toBe(200);
      expect(completed.body).toMatchObject({
        status: 'completed',
        submitted_at: submitted.body.submitted_at,
        completed_at: expect.stringMatching(/Z$/),
        counts: { total: 1, passed: 1 },
      });
      for (const status of ['completed', 'submitted']) {
        const res = await patch(key, run.id, status);
        expect({ status, code: res.status, body: res.body }).toEqual({
          status,
          code: 409,
          body: {
            error: 'conflict',
            message: expect.any(String),
            details: { reason: 'invalid_transition' },
          },
        });
      }
      const refused = await submitResults(t, key, run.id, [
        { automation_id: 'a', status: 'failed' },
      ]);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error: 'conflict',
        message: expect.any(String),
        details: { reason: 'run_completed' },
      });
      // Until it is reopened: nothing above changed it, its time or its counts.
      expect(await read(key, run.id)).toEqual(completed.body);
    });

    describe('reopening (status in_progress)', () => {
      const events = (
        organizationId: string,
        runId: string,
      ): Promise<Array<{ type: string; data: Record<string, unknown> }>> =>
        t.app.get(DataSource).query(
          `SELECT type, data FROM domain_event WHERE organization_id = $1 AND data->>'id' = $2
            ORDER BY created_at, id`,
          [organizationId, runId],
        );

      it('reopens a completed run: results accepted again, then completed again with a new verdict', async () => {
        const { key, project, org } = await tenantWithProject();
        const run = await createRun(t, key, project.id);
        await submitResults(t, key, run.id, [{ automation_id: 'a', status: 'failed' }]);
        await patch(key, run.id, 'submitted').expect(200);
        const completed = (await patch(key, run.id, 'completed').expect(200)).body;
        expect(completed.gate).toEqual({ passed: false, evaluated_at: expect.any(String) });

        const reopened = await patch(key, run.id, 'in_progress');
        expect(reopened.status).toBe(200);
        // Not completed any more; still submitted once; the kept verdict stays until renewed.
        expect(reopened.body).toEqual({
          ...completed,
          status: 'in_progress',
          completed_at: null,
          updated_at: expect.any(String),
        });
        expect(await read(key, run.id)).toEqual(reopened.body);
        const again = await patch(key, run.id, 'in_progress');
        expect(again.status).toBe(409);
        expect(again.body).toEqual({
          error: 'conflict',
          message: 'A test run cannot move from in_progress to in_progress.',
          details: { reason: 'invalid_transition' },
        });

        const accepted = await submitResults(t, key, run.id, [
          { automation_id: 'a', status: 'passed' },
        ]);
        expect(accepted.status).toBe(201);
        const done = (await patch(key, run.id, 'completed').expect(200)).body;
        expect(done).toMatchObject({
          status: 'completed',
          submitted_at: completed.submitted_at,
          completed_at: expect.stringMatching(/Z$/),
          counts: { total: 1, passed: 1, failed: 0 },
          gate: { passed: true, evaluated_at: expect.any(String) },
        });

        const written = await events(org.id, run.id);
        expect(written.map((e) => e.type)).toEqual([
          'testrun.created.v1',
          'testrun.submitted.v1',
          'testrun.completed.v1',
          'testrun.reopened.v1',
          'testrun.completed.v1',
        ]);
        // The reopened event carries the run as the API returned it.
        expect(written[3].data).toEqual(reopened.body);
        expect(written[2].data).toMatchObject({
          gate: { passed: false },
          comparison: { summary: { new_failures: 1 } },
        });
        expect(written[4].data).toMatchObject({
          counts: { passed: 1, failed: 0 },
          gate: { passed: true },
          comparison: { summary: { new_failures: 0 } },
        });
      });

      it('reopens a submitted run; refuses a run in progress, changing nothing', async () => {
        const { key, project, org } = await tenantWithProject();
        const run = await createRun(t, key, project.id);
        const refused = await patch(key, run.id, 'in_progress');
        expect(refused.status).toBe(409);
        expect(refused.body.details).toEqual({ reason: 'invalid_transition' });
        expect(await read(key, run.id)).toEqual(run);
        const submitted = (await patch(key, run.id, 'submitted').expect(200)).body;
        const reopened = (await patch(key, run.id, 'in_progress').expect(200)).body;
        expect(reopened).toMatchObject({
          status: 'in_progress',
          submitted_at: submitted.submitted_at,
          completed_at: null,
          gate: null,
        });
        // Submitted again: a new submission time.
        const resubmitted = (await patch(key, run.id, 'submitted').expect(200)).body;
        expect(Date.parse(resubmitted.submitted_at)).toBeGreaterThanOrEqual(
          Date.parse(submitted.submitted_at),
        );
        expect((await events(org.id, run.id)).map((e) => e.type)).toEqual([
          'testrun.created.v1',
          'testrun.submitted.v1',
          'testrun.reopened.v1',
          'testrun.submitted.v1',
        ]);
      });

      it('reopens through the internal API too, as the operator', async () => {
        const { key, project } = await tenantWithProject();
        const run = await createRun(t, key, project.id);
        await patch(key, run.id, 'completed').expect(200);
        const internal = (status: string) =>
          t.http.patch(`/internal/v1/testruns/${run.id}`).set(OPERATOR).send({ status });
        const reopened = await internal('in_progress');
        expect(reopened.status).toBe(200);
        expect(reopened.body).toEqual(await read(key, run.id));
        expect(reopened.body.status).toBe('in_progress');
        expect((await internal('in_progress')).status).toBe(409);
      });
    });

    // in_progress → completed directly: test/test-run-lifecycle/submit-results.medium-spec.ts.

    it('refuses other statuses and needs testruns:update', async () => {
      const { key, project, org } = await tenantWithProject();
      const run = await createRun(t, key, project.id);
      const back = await patch(key, run.id, 'in_progress');
      expect(back.status).toBe(409);
      expect(back.body).toEqual({
        error: 'conflict',
        message: expect.any(String),
        details: { reason: 'invalid_transition' },
      });
      const unknown = await patch(key, run.id, 'archived');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({
        error: 'invalid_request',
        details: { field: 'status' },
      });
      const { createApiKey } = await import('../factories/organizations.js');
      const reader = await createApiKey(t, org.id, ['testruns:read', 'testruns:create']);
      const res = await patch(reader.key, run.id, 'completed');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        message: expect.any(String),
        details: { required_scopes: ['testruns:update'] },
      });
      // None of the refusals moved the run.
      expect(await read(key, run.id)).toEqual(run);
    });
  });

  describe('GET /testruns and GET /testruns/{id}', () => {
    it('lists with filters and reads one run; other organizations get 404', async () => {
      const { org, key, project } = await tenantWithProject([...RUN_SCOPES, 'builds:create']);
      const other = await createProject(t, org.id);
      const release = await createRelease(t, project.id);
      const build = await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b' });
      const a = await createRun(t, key, project.id, { name: 'a' });
      await new Promise((resolve) => setTimeout(resolve, 10));
      const b = await createRun(t, key, project.id, {
        name: 'b',
        release_id: release.id,
        build_id: build.body.id,
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      const c = await createRun(t, key, other.id, { name: 'c' });
      await t.http
        .patch(`/api/v1/testruns/${c.id}`)
        .set(withKey(key))
        .send({ status: 'completed' })
        .expect(200);
      const names = async (query: string) =>
        (await t.http.get(`/api/v1/testruns${query}`).set(withKey(key)).expect(200)).body.data.map(
          (r: { name: string }) => r.name,
        );
      expect(await names('')).toEqual(['c', 'b', 'a']);
      expect(await names('?status=completed')).toEqual(['c']);
      expect(await names(`?project_id=${project.id}`)).toEqual(['b', 'a']);
      expect(await names(`?release_id=${release.id}`)).toEqual(['b']);
      expect(await names(`?build_id=${build.body.id}`)).toEqual(['b']);
      const bCreated = (await t.http.get(`/api/v1/testruns/${b.id}`).set(withKey(key))).body
        .created_at;
      expect(await names(`?created_after=${encodeURIComponent(bCreated)}`)).toEqual(['c']);
      expect(await names(`?created_before=${encodeURIComponent(bCreated)}`)).toEqual(['a']);
      for (const [query, field] of [
        ['status=paused', 'status'],
        ['offset=1.5', 'offset'],
        ['limit=0', 'limit'],
        ['project_id=x', 'project_id'],
        [`build_id=${UNKNOWN_ID}`, 'build_id'],
      ]) {
        const res = await t.http.get(`/api/v1/testruns?${query}`).set(withKey(key));
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

      const got = await t.http.get(`/api/v1/testruns/${a.id}`).set(withKey(key)).expect(200);
      expect(got.body.name).toBe('a');
      const stranger = await tenantWithProject();
      for (const path of [
        `/api/v1/testruns/${a.id}`,
        `/api/v1/testruns/${a.id}/results`,
        '/api/v1/testruns/nope',
      ]) {
        const res = await t.http.get(path).set(withKey(stranger.key));
        expect(res.status).toBe(404);
      }
      await t.http
        .patch(`/api/v1/testruns/${a.id}`)
        .set(withKey(stranger.key))
        .send({ status: 'completed' })
        .expect(404);
      const into = await submitResults(t, stranger.key, a.id, [
        { automation_id: 'x', status: 'passed' },
      ]);
      expect(into.status).toBe(404);
      expect(into.body).toEqual({
        error: 'not_found',
        message: expect.any(String),
        details: { resource: 'test_run' },
      });
      // The stranger's attempts changed nothing of the run.
      expect((await t.http.get(`/api/v1/testruns/${a.id}`).set(withKey(key))).body).toEqual(
        got.body,
      );
    });
  });

  it('reads every column of a run when it locks one (the statement names them)', () => {
    const columns = t.app
      .get(DataSource)
      .getMetadata(TestRun)
      .columns.map((c) => [c.propertyName, c.databaseName]);
    const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    expect(TEST_RUN_COLUMNS.map((p) => [p, snake(p)]).sort()).toEqual(columns.sort());
  });
});
