import { DataSource } from 'typeorm';
import { createProject, createTestCase, type TestCaseFixture } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { HTTPS, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const SCOPES = [...RUN_SCOPES, 'quarantine:manage'];
const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';
const TOMORROW = () => new Date(Date.now() + 86_400_000).toISOString();

/**
 * The internal API's routes of the console's test-case and flaky-test pages: each answers as
 * the public route it mirrors, for the organization of the project or case in its path.
 */
describe('console cases and flakiness (internal API)', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await startApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function tenantWithCases(names: string[]) {
    const tenant = await createTenant(t, SCOPES);
    const project = await createProject(t, tenant.org.id);
    const cases: Record<string, TestCaseFixture> = {};
    for (const name of names)
      cases[name] = await createTestCase(t, project.id, {
        automation_id: name,
        title: `Case ${name}`,
      });
    return { ...tenant, project, cases };
  }

  /** One submitted run per letter of `sequence` (`P` passed, `F` failed) for each case. */
  async function runs(key: string, projectId: string, sequences: Record<string, string>) {
    const length = Math.max(...Object.values(sequences).map((s) => s.length));
    for (let i = 0; i < length; i++) {
      const run = await createRun(t, key, projectId, { name: `Nightly ${i + 1}` });
      const results = Object.entries(sequences).map(([name, text]) => ({
        automation_id: name,
        status: text[i] === 'F' ? 'failed' : 'passed',
        duration_ms: 100 * (i + 1),
      }));
      expect((await submitResults(t, key, run.id, results)).status).toBe(201);
      await db.query('UPDATE test_run SET created_at = $2 WHERE id = $1', [
        run.id,
        new Date(Date.UTC(2026, 0, 1, 0, i)),
      ]);
      await t.http
        .patch(`/api/v1/testruns/${run.id}`)
        .set(withKey(key))
        .send({ status: 'submitted' })
        .expect(200);
    }
  }

  const internal = (path: string) => t.http.get(`/internal/v1${path}`).set(OPERATOR);
  const publicly = (key: string, path: string) => t.http.get(`/api/v1${path}`).set(withKey(key));
  const ids = (body: { data: Array<{ id: string }> }) => body.data.map((c) => c.id);

  describe('GET /internal/v1/projects/{id}/testcases?q=', () => {
    it('searches titles and automation ids, case-insensitively, a page at a time', async () => {
      const tenant = await createTenant(t, SCOPES);
      const project = await createProject(t, tenant.org.id);
      const card = await createTestCase(t, project.id, {
        title: 'Pays by card',
        automation_id: 'checkout.Payment.card',
      });
      const invoice = await createTestCase(t, project.id, {
        title: 'Pays by invoice',
        automation_id: 'checkout.Payment.invoice',
      });
      const search = await createTestCase(t, project.id, {
        title: 'Finds a product',
        automation_id: 'catalog.Search.finds_100%',
      });
      const path = `/projects/${project.id}/testcases`;

      const byTitle = await internal(`${path}?q=${encodeURIComponent('PAYS BY')}`);
      expect(byTitle.status).toBe(200);
      expect(ids(byTitle.body)).toEqual([invoice.id, card.id]);
      const byAutomationId = await internal(`${path}?q=payment.CARD`);
      expect(ids(byAutomationId.body)).toEqual([card.id]);
      expect(byAutomationId.body.pagination).toEqual({
        total: 1,
        limit: 25,
        offset: 0,
        has_more: false,
      });
      // LIKE's wildcards match themselves only.
      expect(ids((await internal(`${path}?q=${encodeURIComponent('100%')}`)).body)).toEqual([
        search.id,
      ]);
      expect(ids((await internal(`${path}?q=${encodeURIComponent('_')}`)).body)).toEqual([
        search.id,
      ]);
      const paged = await internal(`${path}?q=checkout&limit=1&offset=1`);
      expect(ids(paged.body)).toEqual([card.id]);
      expect(paged.body.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });
      // The public list's `q` still searches titles only.
      const publicSearch = await publicly(
        tenant.key,
        `/projects/${project.id}/testcases?q=payment.card`,
      );
      expect(publicSearch.status).toBe(200);
      expect(publicSearch.body.data).toEqual([]);
    });

    it('answers 400 for a bad q, 404 for an unknown project, 401 without the operator', async () => {
      const { key, project } = await tenantWithCases(['a']);
      const empty = await internal(`/projects/${project.id}/testcases?q=`);
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe('invalid_request');
      const long = await internal(`/projects/${project.id}/testcases?q=${'x'.repeat(256)}`);
      expect(long.status).toBe(400);
      expect((await internal(`/projects/${UNKNOWN_ID}/testcases?q=a`)).status).toBe(404);
      const withApiKey = await t.http
        .get(`/internal/v1/projects/${project.id}/testcases`)
        .set(withKey(key));
      expect(withApiKey.status).toBe(401);
    });
  });

  describe('GET /internal/v1/testcases/{id} and …/results', () => {
    it('answers the case with its organization and quarantine, and its history as the public API does', async () => {
      const { org, key, project, cases } = await tenantWithCases(['login']);
      await runs(key, project.id, { login: 'PFP' });
      const id = cases.login.id;

      const got = await internal(`/testcases/${id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        id,
        project_id: project.id,
        organization_id: org.id,
        title: 'Case login',
        automation_id: 'login',
        quarantine: null,
      });
      const expires = TOMORROW();
      await t.http
        .put(`/api/v1/projects/${project.id}/quarantine/${id}`)
        .set(withKey(key))
        .send({ reason: 'Flips on the shared runners', expires_at: expires })
        .expect(200);
      const quarantined = await internal(`/testcases/${id}`);
      expect(quarantined.body.quarantine).toEqual({
        test_case_id: id,
        automation_id: 'login',
        reason: 'Flips on the shared runners',
        expires_at: expires,
        created_at: expect.any(String),
      });
      // An expired entry is no quarantine.
      await db.query(
        `UPDATE quarantine_entry SET expires_at = now() - interval '1 minute' WHERE test_case_id = $1`,
        [id],
      );
      expect((await internal(`/testcases/${id}`)).body.quarantine).toBeNull();

      const history = await internal(`/testcases/${id}/results?limit=2`);
      expect(history.status).toBe(200);
      const publicHistory = await publicly(key, `/testcases/${id}/results?limit=2`).expect(200);
      expect(history.body).toEqual(publicHistory.body);
      expect(history.body.data.map((r: { status: string }) => r.status)).toEqual([
        'passed',
        'failed',
      ]);
      expect(history.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
      const failed = await internal(`/testcases/${id}/results?status=failed`);
      expect(failed.body.data).toHaveLength(1);
      expect(failed.body.data[0]).toMatchObject({ test_run_name: 'Nightly 2', duration_ms: 200 });
    });

    it('answers 404 for an unknown case, 400 for a bad filter, 401 without the operator', async () => {
      const { key, cases } = await tenantWithCases(['a']);
      for (const path of [`/testcases/${UNKNOWN_ID}`, `/testcases/${UNKNOWN_ID}/results`]) {
        const res = await internal(path);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('not_found');
      }
      expect((await internal('/testcases/not-a-uuid')).status).toBe(404);
      const bad = await internal(`/testcases/${cases.a.id}/results?status=finished`);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('invalid_request');
      for (const path of [`/testcases/${cases.a.id}`, `/testcases/${cases.a.id}/results`]) {
        expect((await t.http.get(`/internal/v1${path}`).set(withKey(key))).status).toBe(401);
        expect((await t.http.get(`/internal/v1${path}`).set(HTTPS)).status).toBe(401);
      }
    });
  });

  describe('GET /internal/v1/projects/{id}/flaky-tests', () => {
    it('lists the project’s flaky cases as the public API does, and only its own', async () => {
      const { key, project, cases } = await tenantWithCases(['steady', 'flaky']);
      await runs(key, project.id, { steady: 'PPPPPP', flaky: 'PFPFPP' });
      const other = await tenantWithCases(['flaky']);
      await runs(other.key, other.project.id, { flaky: 'PFPFPF' });

      const flaky = await internal(`/projects/${project.id}/flaky-tests`);
      expect(flaky.status).toBe(200);
      const publicFlaky = await publicly(key, `/projects/${project.id}/flaky-tests`).expect(200);
      expect(flaky.body).toEqual(publicFlaky.body);
      expect(flaky.body.data).toEqual([
        expect.objectContaining({
          test_case_id: cases.flaky.id,
          executions: 6,
          flips: 4,
          flip_rate: 0.8,
          quarantined: false,
        }),
      ]);
      const window = await internal(`/projects/${project.id}/flaky-tests?window=1`);
      expect(window.status).toBe(400);
      expect(window.body.error).toBe('invalid_request');
      expect((await internal(`/projects/${UNKNOWN_ID}/flaky-tests`)).status).toBe(404);
      const anonymous = await t.http
        .get(`/internal/v1/projects/${project.id}/flaky-tests`)
        .set(HTTPS);
      expect(anonymous.status).toBe(401);
    });
  });

  describe('PUT, GET and DELETE /internal/v1/projects/{id}/quarantine…', () => {
    it('quarantines and releases a case as the public API does, with its events', async () => {
      const { org, key, project, cases } = await tenantWithCases(['a', 'b']);
      const path = `/internal/v1/projects/${project.id}/quarantine/${cases.a.id}`;
      const expires = TOMORROW();
      const put = await t.http
        .put(path)
        .set(OPERATOR)
        .send({ reason: '  Times out on shared runners ', expires_at: expires });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        test_case_id: cases.a.id,
        automation_id: 'a',
        reason: 'Times out on shared runners',
        expires_at: expires,
        created_at: expect.any(String),
      });
      const forever = await t.http
        .put(`/internal/v1/projects/${project.id}/quarantine/${cases.b.id}`)
        .set(OPERATOR)
        .send({ reason: 'Tracked in QA-1' });
      expect(forever.status).toBe(200);
      expect(forever.body.expires_at).toBeNull();

      const list = await internal(`/projects/${project.id}/quarantine`);
      expect(list.status).toBe(200);
      const publicList = await publicly(key, `/projects/${project.id}/quarantine`).expect(200);
      // The console's list is the public one, each entry with its case's title and whether
      // the case is flaky now.
      expect(list.body).toEqual({
        ...publicList.body,
        data: publicList.body.data.map((entry: { automation_id: string }) => ({
          ...entry,
          title: `Case ${entry.automation_id}`,
          flaky: false,
        })),
      });
      expect(list.body.data.map((e: { test_case_id: string }) => e.test_case_id)).toEqual([
        cases.b.id,
        cases.a.id,
      ]);

      expect((await t.http.delete(path).set(OPERATOR)).status).toBe(204);
      const again = await t.http.delete(path).set(OPERATOR);
      expect(again.status).toBe(404);
      expect(again.body.error).toBe('not_found');
      const events = await db.query(
        'SELECT type FROM domain_event WHERE organization_id = $1 ORDER BY created_at, id',
        [org.id],
      );
      expect(events.map((e: { type: string }) => e.type)).toEqual(
        expect.arrayContaining(['testcase.quarantined.v1', 'testcase.unquarantined.v1']),
      );
    });

    it('answers 400 for a bad reason or expiry', async () => {
      const { project, cases } = await tenantWithCases(['a']);
      const path = `/internal/v1/projects/${project.id}/quarantine/${cases.a.id}`;
      for (const body of [
        {},
        { reason: '   ' },
        { reason: 'x'.repeat(1001) },
        { reason: 42 },
        { reason: 'ok', expires_at: 'tomorrow' },
        { reason: 'ok', expires_at: '2020-01-01T00:00:00Z' },
      ]) {
        const res = await t.http.put(path).set(OPERATOR).send(body);
        expect([JSON.stringify(body), res.status, res.body.error]).toEqual([
          JSON.stringify(body),
          400,
          'invalid_request',
        ]);
      }
      expect((await internal(`/projects/${project.id}/quarantine`)).body.data).toEqual([]);
    });

    it('keeps each project to its own organization’s cases, 404 for unknown ids, 401 without the operator', async () => {
      const mine = await tenantWithCases(['a']);
      const theirs = await tenantWithCases(['b']);
      const otherProject = await createProject(t, mine.org.id);
      for (const [projectId, caseId] of [
        [mine.project.id, theirs.cases.b.id], // another organization's case
        [otherProject.id, mine.cases.a.id], // another project's case
        [mine.project.id, UNKNOWN_ID],
        [UNKNOWN_ID, mine.cases.a.id],
      ]) {
        const res = await t.http
          .put(`/internal/v1/projects/${projectId}/quarantine/${caseId}`)
          .set(OPERATOR)
          .send({ reason: 'flaky' });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('not_found');
      }
      expect((await internal(`/projects/${UNKNOWN_ID}/quarantine`)).status).toBe(404);
      const path = `/internal/v1/projects/${mine.project.id}/quarantine/${mine.cases.a.id}`;
      expect((await t.http.put(path).set(withKey(mine.key)).send({ reason: 'x' })).status).toBe(
        401,
      );
      expect((await t.http.delete(path).set(HTTPS)).status).toBe(401);
      expect((await internal(`/projects/${theirs.project.id}/quarantine`)).body.data).toEqual([]);
    });
  });
});
