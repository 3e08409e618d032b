import { DataSource } from 'typeorm';
import { createProject, createRelease, createTestCase } from '../factories/catalog.js';
import { createApiKey, createOrganization, createTenant } from '../factories/organizations.js';
import { ADMIN_TOKEN, HTTPS, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

describe('internal API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  describe('operator token', () => {
    it.each([
      ['no token', undefined],
      ['a wrong token', 'Bearer not-the-operator-token'],
      ['a lowercase scheme', `bearer ${ADMIN_TOKEN}`],
      ['an API key', `Bearer svc_live_${'a'.repeat(64)}`],
    ])('refuses %s with 401', async (_name, header) => {
      const req = t.http.get('/internal/v1/organizations').set(HTTPS);
      if (header) req.set('Authorization', header);
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    });

    it('answers 404 on every internal route when no token is configured', async () => {
      const off = await startApp({ ADMIN_TOKEN: '' });
      try {
        for (const [method, path] of [
          ['get', '/internal/v1/organizations'],
          ['post', '/internal/v1/organizations'],
          ['delete', `/internal/v1/api-keys/${UNKNOWN_ID}`],
        ] as const) {
          const res = await off.http[method](path).set(OPERATOR);
          expect(res.status).toBe(404);
          expect(res.body.error).toBe('not_found');
        }
      } finally {
        await off.close();
      }
    });
  });

  describe('organizations', () => {
    it('creates, reads, lists and updates an organization', async () => {
      const created = await t.http
        .post('/internal/v1/organizations')
        .set(OPERATOR)
        .send({ name: 'Globex', plan: 'pro', subscription_started_at: '2026-02-29T00:00:00Z' });
      expect(created.status).toBe(400);
      expect(created.body.details.field).toBe('subscription_started_at');

      const ok = await t.http.post('/internal/v1/organizations').set(OPERATOR).send({
        name: 'Globex',
        plan: 'pro',
        subscription_started_at: '2026-01-31T08:00:00Z',
        monthly_call_limit: 5000,
      });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({
        name: 'Globex',
        plan: 'pro',
        subscription_started_at: '2026-01-31T08:00:00.000Z',
        monthly_call_limit: 5000,
        calls_this_period: 0,
        webhook_limit: 5,
      });
      const id = ok.body.id;

      const got = await t.http.get(`/internal/v1/organizations/${id}`).set(OPERATOR).expect(200);
      expect(got.body).toEqual(ok.body);

      const patched = await t.http
        .patch(`/internal/v1/organizations/${id}`)
        .set(OPERATOR)
        .send({ plan: 'enterprise', name: 'Globex Corp' })
        .expect(200);
      expect(patched.body).toMatchObject({
        plan: 'enterprise',
        name: 'Globex Corp',
        monthly_call_limit: 5000,
        webhook_limit: null,
      });

      const newer = await createOrganization(t);
      const list = await t.http.get('/internal/v1/organizations?limit=1').set(OPERATOR).expect(200);
      expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([newer.id]);
      expect(list.body.pagination).toMatchObject({ limit: 1, offset: 0, has_more: true });
      expect(list.body.pagination.total).toBeGreaterThanOrEqual(2);
    });

    it.each([
      [{ plan: 'pro' }, 'name'],
      [{ name: 'x', plan: 'gold' }, 'plan'],
      [{ name: '', plan: 'pro' }, 'name'],
      [{ name: 'x', plan: 'pro', monthly_call_limit: -1 }, 'monthly_call_limit'],
      [{ name: 'x', plan: 'pro', monthly_call_limit: 1.5 }, 'monthly_call_limit'],
      [{ name: 'x', plan: 'pro', id: UNKNOWN_ID }, 'id'],
    ])('refuses %j naming %s, creating nothing', async (body, field) => {
      const db = t.app.get(DataSource);
      const before = (await db.query('SELECT count(*)::int AS n FROM organization'))[0].n;
      const res = await t.http.post('/internal/v1/organizations').set(OPERATOR).send(body);
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe(field);
      expect((await db.query('SELECT count(*)::int AS n FROM organization'))[0].n).toBe(before);
    });

    it('answers 404 for unknown and malformed ids', async () => {
      for (const id of [UNKNOWN_ID, 'not-a-uuid', '1']) {
        const res = await t.http.get(`/internal/v1/organizations/${id}`).set(OPERATOR);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          error: 'not_found',
          message: expect.any(String),
          details: { resource: 'organization' },
        });
      }
      await t.http
        .patch(`/internal/v1/organizations/${UNKNOWN_ID}`)
        .set(OPERATOR)
        .send({ name: 'x' })
        .expect(404);
    });
  });

  describe('API keys', () => {
    it('shows the key once, lists keys without it or its hash, and deletes', async () => {
      const org = await createOrganization(t);
      const created = await t.http
        .post(`/internal/v1/organizations/${org.id}/api-keys`)
        .set(OPERATOR)
        .send({ name: 'GitHub Actions', scopes: ['builds:create', 'results:submit'] });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: 'GitHub Actions',
        scopes: ['builds:create', 'results:submit'],
        prefix: created.body.key.slice(0, 17),
        key: expect.stringMatching(/^svc_live_[0-9a-f]{64}$/),
        last_used_at: null,
        created_at: expect.any(String),
      });

      const stored = await t.app
        .get(DataSource)
        .query('SELECT * FROM api_key WHERE id = $1', [created.body.id]);
      expect(JSON.stringify(stored)).not.toContain(created.body.key);

      const list = await t.http
        .get(`/internal/v1/organizations/${org.id}/api-keys`)
        .set(OPERATOR)
        .expect(200);
      expect(list.body.data).toEqual([
        {
          id: created.body.id,
          name: 'GitHub Actions',
          scopes: ['builds:create', 'results:submit'],
          prefix: created.body.prefix,
          last_used_at: null,
          created_at: created.body.created_at,
        },
      ]);
      expect(JSON.stringify(list.body)).not.toMatch(/key_hash|keyHash|svc_live_[0-9a-f]{64}/);

      await t.http.delete(`/internal/v1/api-keys/${created.body.id}`).set(OPERATOR).expect(204);
      await t.http.delete(`/internal/v1/api-keys/${created.body.id}`).set(OPERATOR).expect(404);
      const after = await t.http
        .get(`/internal/v1/organizations/${org.id}/api-keys`)
        .set(OPERATOR)
        .expect(200);
      expect(after.body.data).toEqual([]);
      await t.http.get('/api/v1/organizations').set(withKey(created.body.key)).expect(401);
    });

    it('shows last_used_at in the key list once the key is used', async () => {
      const { org, key, keyId } = await createTenant(t);
      await t.http.get('/api/v1/organizations').set(withKey(key)).expect(200);
      let listed: { id: string; last_used_at: string | null } | undefined;
      for (let i = 0; i < 50 && !listed?.last_used_at; i++) {
        await new Promise((r) => setTimeout(r, 20));
        const list = await t.http
          .get(`/internal/v1/organizations/${org.id}/api-keys`)
          .set(OPERATOR);
        listed = list.body.data.find((k: { id: string }) => k.id === keyId);
      }
      expect(listed?.last_used_at).toMatch(/Z$/);
    });

    it.each([
      [{ name: 'x', scopes: ['builds:delete'] }, 'scopes'],
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x' }, 'scopes'],
      [{ scopes: ['builds:read'] }, 'name'],
    ])('refuses %j naming %s', async (body, field) => {
      const org = await createOrganization(t);
      const res = await t.http
        .post(`/internal/v1/organizations/${org.id}/api-keys`)
        .set(OPERATOR)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe(field);
    });

    it('answers 404 for a key of an unknown organization and an unknown key', async () => {
      await t.http
        .post(`/internal/v1/organizations/${UNKNOWN_ID}/api-keys`)
        .set(OPERATOR)
        .send({ name: 'x', scopes: ['builds:read'] })
        .expect(404);
      await t.http
        .get(`/internal/v1/organizations/${UNKNOWN_ID}/api-keys`)
        .set(OPERATOR)
        .expect(404);
      await t.http.delete('/internal/v1/api-keys/nope').set(OPERATOR).expect(404);
    });
  });
});

describe('internal API lists and build assignment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const ids = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);
  const list = async (path: string) =>
    (await t.http.get(path).set(OPERATOR).expect(200)).body as {
      data: Array<{ id: string }>;
      pagination: { total: number; limit: number; offset: number; has_more: boolean };
    };

  // Three items made in order a, b, c; every list is newest first (CONTRACT §5) and pages
  // with the same envelope as the public API (CONTRACT §10).
  async function expectNewestFirstPages(path: string, made: string[], total = made.length) {
    const newest = [...made].reverse();
    const all = await list(`${path}?limit=100`);
    expect(ids(all).slice(0, made.length)).toEqual(newest);
    // Organizations are the worker database's, made by every file that ran in it before.
    expect(all.pagination).toEqual({ total, limit: 100, offset: 0, has_more: total > 100 });
    const page = await list(`${path}?limit=1&offset=1`);
    expect({ path, data: ids(page), pagination: page.pagination }).toEqual({
      path,
      data: [newest[1]],
      pagination: { total, limit: 1, offset: 1, has_more: true },
    });
    const past = await list(`${path}?offset=${total}`);
    expect(past).toEqual({
      data: [],
      pagination: { total, limit: 25, offset: total, has_more: false },
    });
    for (const [query, field] of [
      ['offset=1.5', 'offset'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
    ]) {
      const res = await t.http.get(`${path}?${query}`).set(OPERATOR);
      expect({ path, query, status: res.status, body: res.body }).toEqual({
        path,
        query,
        status: 400,
        body: {
          error: 'invalid_request',
          message: expect.any(String),
          details: { field, errors: expect.arrayContaining([expect.objectContaining({ field })]) },
        },
      });
    }
  }

  it('lists organizations newest first with the pagination envelope', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await createOrganization(t)).id);
    const db = t.app.get(DataSource);
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM organization');
    await expectNewestFirstPages('/internal/v1/organizations', made, n);
  });

  it('lists an organization’s API keys, projects and releases and a project’s test cases newest first', async () => {
    const org = await createOrganization(t);
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push((await createApiKey(t, org.id)).id);
    await expectNewestFirstPages(`/internal/v1/organizations/${org.id}/api-keys`, keys);

    const projects = [];
    for (let i = 0; i < 3; i++) projects.push((await createProject(t, org.id)).id);
    await expectNewestFirstPages(`/internal/v1/organizations/${org.id}/projects`, projects);

    const cases = [];
    for (let i = 0; i < 3; i++) cases.push((await createTestCase(t, projects[0])).id);
    await expectNewestFirstPages(`/internal/v1/projects/${projects[0]}/testcases`, cases);

    const releases = [];
    for (let i = 0; i < 3; i++) releases.push((await createRelease(t, projects[0])).id);
    await expectNewestFirstPages(`/internal/v1/projects/${projects[0]}/releases`, releases);

    // Each list holds only its parent's items.
    const other = await createOrganization(t);
    const otherProject = await createProject(t, other.id);
    await createTestCase(t, otherProject.id);
    await createRelease(t, otherProject.id);
    expect((await list(`/internal/v1/organizations/${org.id}/projects`)).pagination.total).toBe(3);
    expect((await list(`/internal/v1/projects/${projects[1]}/testcases`)).pagination.total).toBe(0);
    expect((await list(`/internal/v1/projects/${projects[1]}/releases`)).pagination.total).toBe(0);
    for (const path of [
      `/internal/v1/organizations/${UNKNOWN_ID}/projects`,
      `/internal/v1/projects/${UNKNOWN_ID}/testcases`,
      `/internal/v1/projects/${UNKNOWN_ID}/releases`,
      `/internal/v1/organizations/${UNKNOWN_ID}/build-queue`,
    ]) {
      const res = await t.http.get(path).set(OPERATOR);
      expect({ path, status: res.status, error: res.body.error }).toEqual({
        path,
        status: 404,
        error: 'not_found',
      });
    }
  });

  it('lists the build queue in queue order, oldest first, with positions and the envelope', async () => {
    const { org, key } = await createTenant(t, ['builds:create', 'builds:update']);
    const queued = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .send({ name: `q${i}` })
        .expect(202);
      queued.push(res.body.id as string);
    }
    const path = `/internal/v1/organizations/${org.id}/build-queue`;
    const all = await list(path);
    expect(ids(all)).toEqual(queued);
    expect(
      all.data.map((b) => (b as unknown as { queue_position: number }).queue_position),
    ).toEqual([1, 2, 3, 4]);
    expect(all.pagination).toEqual({ total: 4, limit: 25, offset: 0, has_more: false });
    const page = await list(`${path}?limit=2&offset=1`);
    expect(ids(page)).toEqual(queued.slice(1, 3));
    expect(page.pagination).toEqual({ total: 4, limit: 2, offset: 1, has_more: true });
    const bad = await t.http.get(`${path}?offset=1.5`).set(OPERATOR);
    expect(bad.status).toBe(400);
    expect(bad.body.details.field).toBe('offset');

    // An assigned build leaves the queue: it is no longer listed and the rest move up.
    const project = await createProject(t, org.id);
    const release = await createRelease(t, project.id);
    await t.http
      .post(`/internal/v1/builds/${queued[1]}/assign`)
      .set(OPERATOR)
      .send({ release_id: release.id })
      .expect(200);
    const after = await list(path);
    expect(ids(after)).toEqual([queued[0], queued[2], queued[3]]);
    expect(
      after.data.map((b) => (b as unknown as { queue_position: number }).queue_position),
    ).toEqual([1, 2, 3]);
  });

  describe('POST /internal/v1/builds/{id}/assign', () => {
    async function queuedBuild() {
      const tenant = await createTenant(t, ['builds:create', 'builds:read']);
      const project = await createProject(t, tenant.org.id);
      const release = await createRelease(t, project.id);
      const build = await t.http
        .post('/api/v1/builds')
        .set(withKey(tenant.key))
        .send({ name: 'to assign' })
        .expect(202);
      const read = async () =>
        (await t.http.get(`/api/v1/builds/${build.body.id}`).set(withKey(tenant.key)).expect(200))
          .body;
      return { ...tenant, project, release, build: build.body.id as string, read };
    }
    const assign = (buildId: string, body: object) =>
      t.http.post(`/internal/v1/builds/${buildId}/assign`).set(OPERATOR).send(body);

    it('refuses an unknown release, a release of another organization or no release with 400 release_id, leaving the build queued', async () => {
      const { build, read } = await queuedBuild();
      const before = await read();
      const stranger = await createOrganization(t);
      const theirRelease = await createRelease(t, (await createProject(t, stranger.id)).id);
      for (const body of [
        { release_id: UNKNOWN_ID },
        { release_id: theirRelease.id },
        { release_id: 'nope' },
        {},
      ]) {
        const res = await assign(build, body);
        expect({ body, status: res.status, answer: res.body }).toEqual({
          body,
          status: 400,
          answer: {
            error: 'invalid_request',
            message: expect.any(String),
            details: {
              field: 'release_id',
              errors: expect.arrayContaining([expect.objectContaining({ field: 'release_id' })]),
            },
          },
        });
      }
      expect(await read()).toEqual(before);
      expect(before).toMatchObject({ status: 'planned', queue_position: 1, release_id: null });
    });

    it('answers 404 for an unknown or malformed build', async () => {
      const { release } = await queuedBuild();
      for (const id of [UNKNOWN_ID, 'nope']) {
        const res = await assign(id, { release_id: release.id });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          error: 'not_found',
          message: expect.any(String),
          details: { resource: 'build' },
        });
      }
    });

    it('assigns a queued build, and moves an already-assigned build to another release of its organization', async () => {
      const { org, build, release, read } = await queuedBuild();
      const first = await assign(build, { release_id: release.id });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        id: build,
        status: 'assigned',
        release_id: release.id,
        project_id: release.project_id,
        queue_position: null,
      });
      // Assigning again to the same release changes nothing.
      const same = await assign(build, { release_id: release.id });
      expect(same.status).toBe(200);
      expect(same.body).toMatchObject({ status: 'assigned', release_id: release.id });
      // Another release of the organization (another project too): the build follows it.
      const next = await createRelease(t, (await createProject(t, org.id)).id);
      const moved = await assign(build, { release_id: next.id });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({
        status: 'assigned',
        release_id: next.id,
        project_id: next.project_id,
        queue_position: null,
      });
      expect(await read()).toEqual(moved.body);
      // It never comes back into the queue.
      expect((await list(`/internal/v1/organizations/${org.id}/build-queue`)).data).toEqual([]);
    });
  });
});
