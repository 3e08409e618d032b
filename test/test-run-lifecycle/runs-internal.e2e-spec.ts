import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { HTTPS, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

/** The internal API's reads the console's project and run pages use. */
describe('console reads (internal API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  async function tenantWithProject() {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    return { org, key, project };
  }

  describe('GET /internal/v1/projects/{id} and GET /internal/v1/testruns/{id}', () => {
    it('answers the project with its organization, and the run as the public API does', async () => {
      const { org, key, project } = await tenantWithProject();
      const got = await t.http.get(`/internal/v1/projects/${project.id}`).set(OPERATOR);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ ...project, organization_id: org.id });
      const run = await createRun(t, key, project.id);
      const internal = await t.http.get(`/internal/v1/testruns/${run.id}`).set(OPERATOR);
      expect(internal.status).toBe(200);
      const publicView = await t.http
        .get(`/api/v1/testruns/${run.id}`)
        .set(withKey(key))
        .expect(200);
      expect(internal.body).toEqual(publicView.body);
    });

    it('answers 404 for unknown ids', async () => {
      for (const path of [
        `/internal/v1/projects/${UNKNOWN_ID}`,
        `/internal/v1/testruns/${UNKNOWN_ID}`,
      ]) {
        const res = await t.http.get(path).set(OPERATOR);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('not_found');
      }
    });
  });

  describe('GET /internal/v1/projects/{id}/testruns', () => {
    it('pages the project’s runs newest first, and only that project’s', async () => {
      const { org, key, project } = await tenantWithProject();
      const other = await createProject(t, org.id);
      const first = await createRun(t, key, project.id, { name: 'first' });
      const second = await createRun(t, key, project.id, { name: 'second' });
      const third = await createRun(t, key, project.id, { name: 'third' });
      await createRun(t, key, other.id, { name: 'elsewhere' });

      const all = await t.http.get(`/internal/v1/projects/${project.id}/testruns`).set(OPERATOR);
      expect(all.status).toBe(200);
      expect(all.body.data.map((r: { id: string }) => r.id)).toEqual([
        third.id,
        second.id,
        first.id,
      ]);
      expect(all.body.pagination).toEqual({ total: 3, limit: 25, offset: 0, has_more: false });
      expect(all.body.data[0]).toMatchObject({ name: 'third', status: 'in_progress' });
      expect(all.body.data[0].counts.total).toBe(0);

      const page = await t.http
        .get(`/internal/v1/projects/${project.id}/testruns?limit=1&offset=1`)
        .set(OPERATOR);
      expect(page.status).toBe(200);
      expect(page.body.data.map((r: { id: string }) => r.id)).toEqual([second.id]);
      expect(page.body.pagination).toEqual({ total: 3, limit: 1, offset: 1, has_more: true });
    });

    it('filters by status', async () => {
      const { key, project } = await tenantWithProject();
      const open = await createRun(t, key, project.id);
      const done = await createRun(t, key, project.id);
      await t.http
        .patch(`/api/v1/testruns/${done.id}`)
        .set(withKey(key))
        .send({ status: 'completed' })
        .expect(200);
      const completed = await t.http
        .get(`/internal/v1/projects/${project.id}/testruns?status=completed`)
        .set(OPERATOR);
      expect(completed.body.data.map((r: { id: string }) => r.id)).toEqual([done.id]);
      const running = await t.http
        .get(`/internal/v1/projects/${project.id}/testruns?status=in_progress`)
        .set(OPERATOR);
      expect(running.body.data.map((r: { id: string }) => r.id)).toEqual([open.id]);
      const bad = await t.http
        .get(`/internal/v1/projects/${project.id}/testruns?status=finished`)
        .set(OPERATOR);
      expect(bad.status).toBe(400);
    });

    it('answers 404 for an unknown project and 401 without the operator', async () => {
      const unknown = await t.http
        .get(`/internal/v1/projects/${UNKNOWN_ID}/testruns`)
        .set(OPERATOR);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('not_found');
      const { key, project } = await tenantWithProject();
      const withApiKey = await t.http
        .get(`/internal/v1/projects/${project.id}/testruns`)
        .set(withKey(key));
      expect(withApiKey.status).toBe(401);
      const anonymous = await t.http.get(`/internal/v1/projects/${project.id}/testruns`).set(HTTPS);
      expect(anonymous.status).toBe(401);
    });
  });

  describe('GET /internal/v1/testruns/{id}/results', () => {
    it('pages the run’s results and filters them by status', async () => {
      const { key, project } = await tenantWithProject();
      const run = await createRun(t, key, project.id);
      const submitted = await submitResults(t, key, run.id, [
        { automation_id: 'a', status: 'passed' },
        { automation_id: 'b', title: 'Bee', status: 'failed' },
        { automation_id: 'c', status: 'passed' },
        { automation_id: 'd', status: 'skipped' },
      ]);
      expect(submitted.status).toBe(201);

      const all = await t.http.get(`/internal/v1/testruns/${run.id}/results`).set(OPERATOR);
      expect(all.status).toBe(200);
      expect(all.body.pagination).toEqual({ total: 4, limit: 25, offset: 0, has_more: false });
      const publicView = await t.http
        .get(`/api/v1/testruns/${run.id}/results`)
        .set(withKey(key))
        .expect(200);
      // As the public API answers them, with their test cases' names and markers.
      expect(
        all.body.data.map(
          ({
            test_case_title: _t,
            automation_id: _a,
            case_flaky: _f,
            quarantined: _q,
            ...rest
          }: Record<string, unknown>) => rest,
        ),
      ).toEqual(publicView.body.data);
      const named = Object.fromEntries(
        all.body.data.map(
          (r: { automation_id: string; test_case_title: string; status: string }) => [
            r.automation_id,
            [r.test_case_title, r.status],
          ],
        ),
      );
      expect(named).toEqual({
        a: ['a', 'passed'],
        b: ['Bee', 'failed'],
        c: ['c', 'passed'],
        d: ['d', 'skipped'],
      });

      const page = await t.http
        .get(`/internal/v1/testruns/${run.id}/results?limit=3&offset=3`)
        .set(OPERATOR);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.pagination).toEqual({ total: 4, limit: 3, offset: 3, has_more: false });

      const passed = await t.http
        .get(`/internal/v1/testruns/${run.id}/results?status=passed`)
        .set(OPERATOR);
      expect(passed.body.pagination.total).toBe(2);
      expect(passed.body.data.map((r: { status: string }) => r.status)).toEqual([
        'passed',
        'passed',
      ]);
      const failed = await t.http
        .get(`/internal/v1/testruns/${run.id}/results?status=failed`)
        .set(OPERATOR);
      expect(failed.body.data).toHaveLength(1);
      expect(failed.body.data[0].status).toBe('failed');
      const bad = await t.http
        .get(`/internal/v1/testruns/${run.id}/results?status=green`)
        .set(OPERATOR);
      expect(bad.status).toBe(400);
    });

    it('answers 404 for an unknown run and 401 without the operator', async () => {
      const unknown = await t.http.get(`/internal/v1/testruns/${UNKNOWN_ID}/results`).set(OPERATOR);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('not_found');
      const { key, project } = await tenantWithProject();
      const run = await createRun(t, key, project.id);
      const withApiKey = await t.http
        .get(`/internal/v1/testruns/${run.id}/results`)
        .set(withKey(key));
      expect(withApiKey.status).toBe(401);
    });
  });

  describe('GET /internal/v1/testruns/{id}/configurations', () => {
    it('counts the run’s current results per configuration, none last', async () => {
      const { key, project } = await tenantWithProject();
      const run = await createRun(t, key, project.id);
      const other = await createRun(t, key, project.id);
      await submitResults(t, key, run.id, [
        { automation_id: 'a', status: 'failed', configuration: 'firefox' },
        { automation_id: 'a', status: 'passed', configuration: 'chromium' },
        { automation_id: 'b', status: 'passed', configuration: ' firefox ' },
        { automation_id: 'c', status: 'passed' },
      ]).expect(201);
      // A later result of a slot replaces it: counted once.
      await submitResults(t, key, run.id, [
        { automation_id: 'a', status: 'passed', configuration: 'firefox' },
      ]).expect(201);
      await submitResults(t, key, other.id, [
        { automation_id: 'a', status: 'passed', configuration: 'webkit' },
      ]).expect(201);

      const res = await t.http
        .get(`/internal/v1/testruns/${run.id}/configurations`)
        .set(OPERATOR)
        .expect(200);
      expect(res.body).toEqual({
        data: [
          { configuration: 'chromium', results: 1 },
          { configuration: 'firefox', results: 2 },
          { configuration: null, results: 1 },
        ],
      });
      const empty = await createRun(t, key, project.id);
      const none = await t.http
        .get(`/internal/v1/testruns/${empty.id}/configurations`)
        .set(OPERATOR)
        .expect(200);
      expect(none.body).toEqual({ data: [] });
    });

    it('answers 404 for an unknown run and 401 without the operator', async () => {
      const unknown = await t.http
        .get(`/internal/v1/testruns/${UNKNOWN_ID}/configurations`)
        .set(OPERATOR);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('not_found');
      const { key, project } = await tenantWithProject();
      const run = await createRun(t, key, project.id);
      const withApiKey = await t.http
        .get(`/internal/v1/testruns/${run.id}/configurations`)
        .set(withKey(key));
      expect(withApiKey.status).toBe(401);
    });
  });
});
