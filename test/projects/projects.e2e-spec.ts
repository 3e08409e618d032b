import { createProject, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

describe('projects and test cases', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  describe('GET /projects', () => {
    it('lists the organization’s projects only, newest first', async () => {
      const { org, key } = await createTenant(t, ['projects:read']);
      const other = await createTenant(t, ['projects:read']);
      await createProject(t, other.org.id, { name: 'Foreign' });
      const first = await createProject(t, org.id, {
        name: 'Web',
        key: 'WEB',
        description: 'Storefront',
      });
      const second = await createProject(t, org.id, { name: 'Mobile', key: 'MOB' });
      const res = await t.http.get('/api/v1/projects').set(withKey(key)).expect(200);
      expect(res.body).toEqual({
        data: [
          {
            id: second.id,
            name: 'Mobile',
            key: 'MOB',
            description: null,
            created_at: expect.any(String),
            updated_at: expect.any(String),
          },
          {
            id: first.id,
            name: 'Web',
            key: 'WEB',
            description: 'Storefront',
            created_at: expect.any(String),
            updated_at: expect.any(String),
          },
        ],
        pagination: { total: 2, limit: 25, offset: 0, has_more: false },
      });
    });

    it('needs projects:read', async () => {
      const { key } = await createTenant(t, ['builds:read']);
      const res = await t.http.get('/api/v1/projects').set(withKey(key));
      expect(res.status).toBe(403);
      expect(res.body.details.required_scopes).toEqual(['projects:read']);
    });

    it('refuses a project key used twice in one organization, but not across organizations', async () => {
      const a = await createTenant(t);
      const b = await createTenant(t);
      await createProject(t, a.org.id, { key: 'SAME' });
      await createProject(t, b.org.id, { key: 'SAME' });
      const res = await t.http
        .post(`/internal/v1/organizations/${a.org.id}/projects`)
        .set(OPERATOR)
        .send({ name: 'again', key: 'SAME' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'conflict', details: { reason: 'duplicate_key' } });
      const bad = await t.http
        .post(`/internal/v1/organizations/${a.org.id}/projects`)
        .set(OPERATOR)
        .send({ name: 'x', key: 'has space' });
      expect(bad.body.details.field).toBe('key');
      await t.http
        .post(`/internal/v1/organizations/${UNKNOWN_ID}/projects`)
        .set(OPERATOR)
        .send({ name: 'x', key: 'X' })
        .expect(404);
    });

    it('refuses a key that differs only in case (409 conflict), also when both are created at once', async () => {
      const { org, key } = await createTenant(t, ['projects:read']);
      await createProject(t, org.id, { key: 'web' });
      const create = (projectKey: string) =>
        t.http
          .post(`/internal/v1/organizations/${org.id}/projects`)
          .set(OPERATOR)
          .send({ name: projectKey, key: projectKey });
      const upper = await create('WEB');
      expect(upper.status).toBe(409);
      expect(upper.body).toMatchObject({ error: 'conflict', details: { reason: 'duplicate_key' } });

      const racing = await Promise.all(['Api', 'API', 'api', 'aPi'].map(create));
      expect(racing.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
      const listed = await t.http.get('/api/v1/projects').set(withKey(key)).expect(200);
      expect(listed.body.data.map((p: { key: string }) => p.key.toLowerCase()).sort()).toEqual([
        'api',
        'web',
      ]);
    });
  });

  describe('GET /projects/{id}/testcases', () => {
    let key: string;
    let projectId: string;
    let cases: Awaited<ReturnType<typeof createTestCase>>[];

    beforeAll(async () => {
      const tenant = await createTenant(t, ['projects:read']);
      key = tenant.key;
      projectId = (await createProject(t, tenant.org.id)).id;
      cases = [];
      for (const [title, automation] of [
        ['Login works', 'auth.LoginTest.works'],
        ['Logout works', 'auth.LogoutTest.works'],
        ['Pays 100% of the total', 'checkout.PayTest.full'],
        ['Manual exploratory pass', undefined],
      ] as const) {
        cases.push(
          await createTestCase(t, projectId, {
            title,
            automation_id: automation,
            section: 'Web / Auth',
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });

    const titles = async (query: string) => {
      const res = await t.http
        .get(`/api/v1/projects/${projectId}/testcases${query}`)
        .set(withKey(key));
      expect(res.status).toBe(200);
      return res.body.data.map((c: { title: string }) => c.title);
    };

    it('lists the project’s cases newest first with every field', async () => {
      const res = await t.http
        .get(`/api/v1/projects/${projectId}/testcases?limit=1`)
        .set(withKey(key))
        .expect(200);
      expect(res.body).toEqual({
        data: [
          {
            id: cases[3].id,
            project_id: projectId,
            title: 'Manual exploratory pass',
            automation_id: null,
            section: 'Web / Auth',
            priority: 'medium',
            status: 'active',
            created_at: expect.any(String),
            updated_at: expect.any(String),
          },
        ],
        pagination: { total: 4, limit: 1, offset: 0, has_more: true },
      });
    });

    it('filters by automation_id, updated_after (strictly) and title text', async () => {
      expect(await titles('?automation_id=auth.LoginTest.works')).toEqual(['Login works']);
      expect(await titles(`?updated_after=${encodeURIComponent(cases[1].updated_at)}`)).toEqual([
        'Manual exploratory pass',
        'Pays 100% of the total',
      ]);
      expect(await titles('?q=WORKS')).toEqual(['Logout works', 'Login works']);
      expect(await titles('?q=100%25')).toEqual(['Pays 100% of the total']);
      expect(await titles('?q=%25')).toEqual(['Pays 100% of the total']);
      expect(await titles('?q=log&automation_id=auth.LogoutTest.works')).toEqual(['Logout works']);
    });

    it.each([
      ['updated_after=soon', 'updated_after'],
      ['q=', 'q'],
      ['limit=500', 'limit'],
      ['status=active', 'status'],
      ['offset=1.5', 'offset'],
    ])('refuses %s naming %s', async (query, field) => {
      const res = await t.http
        .get(`/api/v1/projects/${projectId}/testcases?${query}`)
        .set(withKey(key));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
        details: { field, errors: expect.arrayContaining([expect.objectContaining({ field })]) },
      });
    });

    it('answers 404 for another organization’s project and for malformed ids', async () => {
      const other = await createTenant(t, ['projects:read']);
      for (const id of [projectId, UNKNOWN_ID, 'abc']) {
        const res = await t.http.get(`/api/v1/projects/${id}/testcases`).set(withKey(other.key));
        expect(res.status).toBe(404);
        expect(res.body.details).toEqual({ resource: 'project' });
      }
    });

    it('refuses an automation_id used twice in a project', async () => {
      const res = await t.http
        .post(`/internal/v1/projects/${projectId}/testcases`)
        .set(OPERATOR)
        .send({ title: 'dup', automation_id: 'auth.LoginTest.works' });
      expect(res.status).toBe(409);
      expect(res.body.details.reason).toBe('duplicate_automation_id');
      const bad = await t.http
        .post(`/internal/v1/projects/${projectId}/testcases`)
        .set(OPERATOR)
        .send({ title: 'x', priority: 'urgent' });
      expect(bad.body.details.field).toBe('priority');
      await t.http
        .post(`/internal/v1/projects/${UNKNOWN_ID}/testcases`)
        .set(OPERATOR)
        .send({ title: 'x' })
        .expect(404);
    });
  });
});

describe('releases (internal API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('creates, lists and moves a release forward; completing sets released_at', async () => {
    const { org } = await createTenant(t);
    const project = await createProject(t, org.id);
    const created = await t.http
      .post(`/internal/v1/projects/${project.id}/releases`)
      .set(OPERATOR)
      .send({ name: 'Spring', version: '2026.4', target_date: '2026-04-30' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      project_id: project.id,
      name: 'Spring',
      version: '2026.4',
      status: 'planned',
      target_date: '2026-04-30',
      released_at: null,
      runs_deleted: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id;

    const list = await t.http
      .get(`/internal/v1/projects/${project.id}/releases`)
      .set(OPERATOR)
      .expect(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([id]);

    const started = await t.http
      .patch(`/internal/v1/releases/${id}`)
      .set(OPERATOR)
      .send({ status: 'in_progress' });
    expect(started.body).toMatchObject({ status: 'in_progress', released_at: null });

    const before = Date.now();
    const done = await t.http
      .patch(`/internal/v1/releases/${id}`)
      .set(OPERATOR)
      .send({ status: 'completed' });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    expect(Date.parse(done.body.released_at)).toBeGreaterThanOrEqual(before - 1000);

    for (const status of ['completed', 'in_progress', 'planned']) {
      const again = await t.http
        .patch(`/internal/v1/releases/${id}`)
        .set(OPERATOR)
        .send({ status });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        error: 'conflict',
        message: expect.any(String),
        details: { reason: 'invalid_transition' },
      });
    }
    // Completed is final: the refusals left the release and its released_at as they were.
    const listed = await t.http
      .get(`/internal/v1/projects/${project.id}/releases`)
      .set(OPERATOR)
      .expect(200);
    // The console's list carries each release's progress beside the release.
    expect(listed.body.data.find((r: { id: string }) => r.id === id)).toEqual({
      ...done.body,
      quarantined_failures: 0,
      progress: expect.objectContaining({ release_id: id, status: 'completed', ready: false }),
    });
  });

  it('goes from planned straight to completed', async () => {
    const { org } = await createTenant(t);
    const project = await createProject(t, org.id);
    const release = await t.http
      .post(`/internal/v1/projects/${project.id}/releases`)
      .set(OPERATOR)
      .send({ name: 'R' });
    const done = await t.http
      .patch(`/internal/v1/releases/${release.body.id}`)
      .set(OPERATOR)
      .send({ status: 'completed' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: 'completed',
      released_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('validates and answers 404 for unknown ids', async () => {
    const { org } = await createTenant(t);
    const project = await createProject(t, org.id);
    const bad = await t.http
      .post(`/internal/v1/projects/${project.id}/releases`)
      .set(OPERATOR)
      .send({ name: 'R', target_date: '30/04/2026' });
    expect(bad.body.details.field).toBe('target_date');
    const badStatus = await t.http
      .patch(`/internal/v1/releases/${UNKNOWN_ID}`)
      .set(OPERATOR)
      .send({ status: 'shipped' });
    expect(badStatus.body.details.field).toBe('status');
    await t.http
      .patch(`/internal/v1/releases/${UNKNOWN_ID}`)
      .set(OPERATOR)
      .send({ status: 'completed' })
      .expect(404);
    await t.http
      .post(`/internal/v1/projects/${UNKNOWN_ID}/releases`)
      .set(OPERATOR)
      .send({ name: 'R' })
      .expect(404);
  });
});
