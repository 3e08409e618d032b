import { DataSource } from 'typeorm';
import { createProject, createRelease } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const ALL_BUILD_SCOPES = ['builds:create', 'builds:read', 'builds:update'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('builds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const countBuilds = async (organizationId: string) =>
    (
      await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM build WHERE organization_id = $1', [organizationId])
    )[0].n;

  describe('POST /builds', () => {
    it('without a release: 202, planned, queued, with a message', async () => {
      const { key } = await createTenant(t, ALL_BUILD_SCOPES);
      const res = await t.http.post('/api/v1/builds').set(withKey(key)).send({
        name: 'web-shop main #1042',
        build_number: '1042',
        commit_sha: '9FCEB02D0AE598E95DC970B74767F19372D61AF8',
        branch: 'main',
        repo_url: 'https://github.com/acme/web-shop',
      });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'web-shop main #1042',
        build_number: '1042',
        commit_sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
        branch: 'main',
        repo_url: 'https://github.com/acme/web-shop',
        status: 'planned',
        source: 'api',
        queue_position: 1,
        project_id: null,
        release_id: null,
        message: expect.stringMatching(/queue/),
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
    });

    it('with a release: 201, assigned, not queued, the build object', async () => {
      const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
      const project = await createProject(t, org.id);
      const release = await createRelease(t, project.id);
      const res = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .send({ name: 'rc build', release_id: release.id });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'rc build',
        build_number: null,
        commit_sha: null,
        branch: null,
        repo_url: null,
        status: 'assigned',
        source: 'api',
        queue_position: null,
        project_id: project.id,
        release_id: release.id,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
    });

    it('refuses an unknown, foreign or malformed release_id naming it, creating nothing', async () => {
      const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
      const other = await createTenant(t);
      const foreignRelease = await createRelease(t, (await createProject(t, other.org.id)).id);
      for (const releaseId of [foreignRelease.id, '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c', 'nope']) {
        const res = await t.http
          .post('/api/v1/builds')
          .set(withKey(key))
          .send({ name: 'x', release_id: releaseId });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('invalid_request');
        expect(res.body.details.field).toBe('release_id');
      }
      expect(await countBuilds(org.id)).toBe(0);
    });

    it('refuses a release of another project than project_id', async () => {
      const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
      const release = await createRelease(t, (await createProject(t, org.id)).id);
      const otherProject = await createProject(t, org.id);
      const res = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .send({ name: 'x', release_id: release.id, project_id: otherProject.id });
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe('release_id');
    });

    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'x', commit_sha: 'xyz1234' }, 'commit_sha'],
      [{ name: 'x', commit_sha: 'abc123' }, 'commit_sha'],
      [{ name: 'x', commit_sha: 'a'.repeat(65) }, 'commit_sha'],
      [{ name: 'x', repo_url: 'ftp://example.com/repo' }, 'repo_url'],
      [{ name: 'x', repo_url: 'not a url' }, 'repo_url'],
      [{ name: 'x', repo_url: `https://example.com/${'a'.repeat(2040)}` }, 'repo_url'],
      [{ name: 'x', branch: 'b'.repeat(256) }, 'branch'],
      [{ name: 'x', build_number: 1042 }, 'build_number'],
      [{ name: 'x', project_id: '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c' }, 'project_id'],
      [{ name: 'x', status: 'assigned' }, 'status'],
      // PostgreSQL text cannot hold NUL: this was a database error (a 500).
      [{ name: 'web\u0000shop' }, 'name'],
      [{ name: 'x', branch: 'main\u0000' }, 'branch'],
    ])('refuses %j naming %s', async (body, field) => {
      const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
      const res = await t.http.post('/api/v1/builds').set(withKey(key)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details.field).toBe(field);
      expect(await countBuilds(org.id)).toBe(0);
    });

    it('stores the text "\\u0000" as sent: only a real NUL character is refused', async () => {
      const { key } = await createTenant(t, ALL_BUILD_SCOPES);
      const res = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .send({ name: 'escaped \\u0000 text' });
      expect(res.status).toBe(202);
      expect(res.body.name).toBe('escaped \\u0000 text');
    });

    it('accepts a 7- and a 64-character commit hash', async () => {
      const { key } = await createTenant(t, ALL_BUILD_SCOPES);
      for (const sha of ['abcdef1', 'A'.repeat(64)]) {
        const res = await t.http
          .post('/api/v1/builds')
          .set(withKey(key))
          .send({ name: 'x', commit_sha: sha });
        expect(res.status).toBe(202);
        expect(res.body.commit_sha).toBe(sha.toLowerCase());
      }
    });

    it('needs builds:create', async () => {
      const { key } = await createTenant(t, ['builds:read', 'builds:update']);
      const res = await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'x' });
      expect(res.status).toBe(403);
      expect(res.body.details.required_scopes).toEqual(['builds:create']);
    });
  });

  it('treats ids in any case as the same id', async () => {
    const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
    const project = await createProject(t, org.id);
    const release = await createRelease(t, project.id);
    const res = await t.http.post('/api/v1/builds').set(withKey(key)).send({
      name: 'x',
      project_id: project.id.toUpperCase(),
      release_id: release.id.toUpperCase(),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ project_id: project.id, release_id: release.id });
  });

  it('refuses moving an assigned build to a project its release is not in', async () => {
    const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
    const release = await createRelease(t, (await createProject(t, org.id)).id);
    const other = await createProject(t, org.id);
    const build = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .send({ name: 'x', release_id: release.id });
    const res = await t.http
      .patch(`/api/v1/builds/${build.body.id}`)
      .set(withKey(key))
      .send({ project_id: other.id });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('project_id');
  });

  describe('release-assignment queue', () => {
    it('numbers builds in creation order and keeps positions dense when one leaves', async () => {
      const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
      const release = await createRelease(t, (await createProject(t, org.id)).id);
      const ids: string[] = [];
      for (let i = 1; i <= 4; i++) {
        const res = await t.http
          .post('/api/v1/builds')
          .set(withKey(key))
          .send({ name: `b${i}` });
        expect(res.body.queue_position).toBe(i);
        ids.push(res.body.id);
      }

      // b2 is assigned through PATCH: b3 and b4 move up.
      const patched = await t.http
        .patch(`/api/v1/builds/${ids[1]}`)
        .set(withKey(key))
        .send({ release_id: release.id });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        status: 'assigned',
        queue_position: null,
        release_id: release.id,
      });
      const positions = async () =>
        Promise.all(
          ids.map(
            async (id) =>
              (await t.http.get(`/api/v1/builds/${id}`).set(withKey(key))).body.queue_position,
          ),
        );
      expect(await positions()).toEqual([1, null, 2, 3]);

      // b1 is assigned through the internal API: everyone behind moves up again.
      const assigned = await t.http
        .post(`/internal/v1/builds/${ids[0]}/assign`)
        .set(OPERATOR)
        .send({ release_id: release.id });
      expect(assigned.status).toBe(200);
      expect(assigned.body).toMatchObject({ status: 'assigned', queue_position: null });
      expect(await positions()).toEqual([null, null, 1, 2]);

      const queue = await t.http
        .get(`/internal/v1/organizations/${org.id}/build-queue`)
        .set(OPERATOR)
        .expect(200);
      expect(
        queue.body.data.map((b: { id: string; queue_position: number }) => [
          b.id,
          b.queue_position,
        ]),
      ).toEqual([
        [ids[2], 1],
        [ids[3], 2],
      ]);
      expect(queue.body.pagination.total).toBe(2);

      // A new build joins at the end.
      const late = await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'b5' });
      expect(late.body.queue_position).toBe(3);
    });

    it('gives 20 concurrent creations the positions 1..20, without gaps or repeats', async () => {
      const { key } = await createTenant(t, ALL_BUILD_SCOPES);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.http
            .post('/api/v1/builds')
            .set(withKey(key))
            .send({ name: `c${i}` }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(202));
      const positions = responses.map((r) => r.body.queue_position).sort((a, b) => a - b);
      expect(positions).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('keeps positions dense when builds leave concurrently', async () => {
      const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
      const release = await createRelease(t, (await createProject(t, org.id)).id);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        ids.push(
          (
            await t.http
              .post('/api/v1/builds')
              .set(withKey(key))
              .send({ name: `d${i}` })
          ).body.id,
        );
      }
      const leaving = [ids[1], ids[3], ids[4], ids[8]];
      const results = await Promise.all(
        leaving.map((id) =>
          t.http.patch(`/api/v1/builds/${id}`).set(withKey(key)).send({ release_id: release.id }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const queue = await t.http
        .get(`/internal/v1/organizations/${org.id}/build-queue`)
        .set(OPERATOR)
        .expect(200);
      expect(queue.body.data.map((b: { id: string }) => b.id)).toEqual(
        ids.filter((id) => !leaving.includes(id)),
      );
      expect(queue.body.data.map((b: { queue_position: number }) => b.queue_position)).toEqual([
        1, 2, 3, 4, 5, 6,
      ]);
    });

    it('queues builds from the UI with source "ui", in the same queue', async () => {
      const { org, key } = await createTenant(t, ALL_BUILD_SCOPES);
      await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'api build' }).expect(202);
      const ui = await t.http
        .post(`/internal/v1/organizations/${org.id}/builds`)
        .set(OPERATOR)
        .send({ name: 'ui build' });
      expect(ui.status).toBe(202);
      expect(ui.body).toMatchObject({ source: 'ui', status: 'planned', queue_position: 2 });
      await t.http
        .post('/internal/v1/organizations/0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c/builds')
        .set(OPERATOR)
        .send({ name: 'x' })
        .expect(404);
    });
  });

  describe('GET /builds/{id} and PATCH /builds/{id}', () => {
    it('reads and updates the build', async () => {
      const { key } = await createTenant(t, ALL_BUILD_SCOPES);
      const created = await t.http.post('/api/v1/builds').set(withKey(key)).send({ name: 'first' });
      const got = await t.http
        .get(`/api/v1/builds/${created.body.id}`)
        .set(withKey(key))
        .expect(200);
      const { message: _message, ...build } = created.body;
      expect(got.body).toEqual(build);

      const patched = await t.http
        .patch(`/api/v1/builds/${created.body.id}`)
        .set(withKey(key))
        .send({ name: 'renamed', branch: 'release/1.2', commit_sha: 'ABCDEF0' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        name: 'renamed',
        branch: 'release/1.2',
        commit_sha: 'abcdef0',
        status: 'planned',
        queue_position: 1,
      });
      const invalid = await t.http
        .patch(`/api/v1/builds/${created.body.id}`)
        .set(withKey(key))
        .send({ repo_url: 'x' });
      expect(invalid.status).toBe(400);
      expect(invalid.body.details.field).toBe('repo_url');
    });

    it('answers 404 for another organization’s build and for malformed ids, on every {id} route', async () => {
      const mine = await createTenant(t, ALL_BUILD_SCOPES);
      const theirs = await createTenant(t, ALL_BUILD_SCOPES);
      const build = await t.http
        .post('/api/v1/builds')
        .set(withKey(theirs.key))
        .send({ name: 'secret' });
      for (const id of [build.body.id, 'not-an-id', '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c']) {
        const got = await t.http.get(`/api/v1/builds/${id}`).set(withKey(mine.key));
        expect(got.status).toBe(404);
        expect(got.body).toEqual({
          error: 'not_found',
          message: expect.any(String),
          details: { resource: 'build' },
        });
        const patched = await t.http
          .patch(`/api/v1/builds/${id}`)
          .set(withKey(mine.key))
          .send({ name: 'mine now' });
        expect(patched.status).toBe(404);
      }
      const still = await t.http
        .get(`/api/v1/builds/${build.body.id}`)
        .set(withKey(theirs.key))
        .expect(200);
      expect(still.body.name).toBe('secret');
    });

    it('needs builds:read to read and builds:update to update', async () => {
      const owner = await createTenant(t, ALL_BUILD_SCOPES);
      const build = await t.http.post('/api/v1/builds').set(withKey(owner.key)).send({ name: 'x' });
      const { createApiKey } = await import('../factories/organizations.js');
      const writer = await createApiKey(t, owner.org.id, ['builds:create']);
      expect(
        (await t.http.get(`/api/v1/builds/${build.body.id}`).set(withKey(writer.key))).status,
      ).toBe(403);
      expect((await t.http.get('/api/v1/builds').set(withKey(writer.key))).status).toBe(403);
      const patch = await t.http
        .patch(`/api/v1/builds/${build.body.id}`)
        .set(withKey(writer.key))
        .send({ name: 'y' });
      expect(patch.status).toBe(403);
      expect(patch.body.details.required_scopes).toEqual(['builds:update']);
    });
  });

  describe('GET /builds', () => {
    let key: string;
    let projectId: string;
    let releaseId: string;
    const ids: Record<string, string> = {};
    let middle: string;

    beforeAll(async () => {
      const tenant = await createTenant(t, ALL_BUILD_SCOPES);
      key = tenant.key;
      projectId = (await createProject(t, tenant.org.id)).id;
      releaseId = (await createRelease(t, projectId)).id;
      const make = async (name: string, body: object) => {
        const res = await t.http
          .post('/api/v1/builds')
          .set(withKey(key))
          .send({ name, ...body });
        ids[name] = res.body.id;
        return res.body;
      };
      await make('a', { branch: 'main', commit_sha: 'aaaaaaa', build_number: '1' });
      await make('b', {
        branch: 'main',
        commit_sha: 'bbbbbbb',
        build_number: '2',
        project_id: projectId,
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      middle = (await make('c', { branch: 'feature/x', build_number: '3', release_id: releaseId }))
        .created_at;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await make('d', { branch: 'main', build_number: '4' });
      await t.http
        .post(`/internal/v1/organizations/${tenant.org.id}/builds`)
        .set(OPERATOR)
        .send({ name: 'e' });
      // Another organization's builds never show up.
      const other = await createTenant(t, ALL_BUILD_SCOPES);
      await t.http
        .post('/api/v1/builds')
        .set(withKey(other.key))
        .send({ name: 'foreign', branch: 'main' });
    });

    const names = async (query: string) => {
      const res = await t.http.get(`/api/v1/builds${query}`).set(withKey(key));
      expect(res.status).toBe(200);
      return res.body.data.map((b: { name: string }) => b.name);
    };

    it('lists the organization’s builds newest first with exact pagination', async () => {
      expect(await names('')).toEqual(['e', 'd', 'c', 'b', 'a']);
      const page = await t.http.get('/api/v1/builds?limit=2&offset=2').set(withKey(key));
      expect(page.body.data.map((b: { name: string }) => b.name)).toEqual(['c', 'b']);
      expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 2, has_more: true });
      const last = await t.http.get('/api/v1/builds?limit=2&offset=4').set(withKey(key));
      expect(last.body.pagination).toEqual({ total: 5, limit: 2, offset: 4, has_more: false });
      expect(last.body.data).toHaveLength(1);
      const beyond = await t.http.get('/api/v1/builds?offset=10').set(withKey(key));
      expect(beyond.body).toEqual({
        data: [],
        pagination: { total: 5, limit: 25, offset: 10, has_more: false },
      });
    });

    it('filters by every field', async () => {
      expect(await names('?status=assigned')).toEqual(['c']);
      expect(await names('?status=planned')).toEqual(['e', 'd', 'b', 'a']);
      expect(await names('?branch=main')).toEqual(['d', 'b', 'a']);
      expect(await names('?commit_sha=BBBBBBB')).toEqual(['b']);
      expect(await names('?build_number=3')).toEqual(['c']);
      expect(await names(`?release_id=${releaseId}`)).toEqual(['c']);
      expect(await names(`?project_id=${projectId}`)).toEqual(['c', 'b']);
      expect(await names('?source=ui')).toEqual(['e']);
      expect(await names('?source=api&branch=main&limit=1')).toEqual(['d']);
      const pagination = async (query: string) =>
        (await t.http.get(`/api/v1/builds${query}`).set(withKey(key)).expect(200)).body.pagination;
      expect(await pagination('?branch=main&limit=1')).toEqual({
        total: 3,
        limit: 1,
        offset: 0,
        has_more: true,
      });
      expect(await pagination('?branch=main&offset=5')).toEqual({
        total: 3,
        limit: 25,
        offset: 5,
        has_more: false,
      });
      expect(await pagination('?branch=nowhere&offset=5')).toMatchObject({ total: 0 });
      expect(await names(`?created_after=${encodeURIComponent(middle)}`)).toEqual(['e', 'd']);
      expect(await names(`?created_before=${encodeURIComponent(middle)}`)).toEqual(['b', 'a']);
      const res = await t.http.get('/api/v1/builds?branch=main&limit=1').set(withKey(key));
      expect(res.body.pagination).toEqual({ total: 3, limit: 1, offset: 0, has_more: true });
    });

    it.each([
      ['status=deleted', 'status'],
      ['source=cli', 'source'],
      ['created_after=yesterday', 'created_after'],
      ['created_before=2026-13-45', 'created_before'],
      ['commit_sha=zz', 'commit_sha'],
      ['release_id=nope', 'release_id'],
      ['release_id=0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c', 'release_id'],
      ['project_id=0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c', 'project_id'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
      ['offset=1000000001', 'offset'],
      ['color=red', 'color'],
      ['branch=main%00', 'branch'],
    ])('refuses %s naming %s', async (query, field) => {
      const res = await t.http.get(`/api/v1/builds?${query}`).set(withKey(key));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
        details: { field, errors: expect.arrayContaining([expect.objectContaining({ field })]) },
      });
    });

    it('accepts limit 1 and 100', async () => {
      for (const limit of [1, 100]) {
        const res = await t.http.get(`/api/v1/builds?limit=${limit}`).set(withKey(key)).expect(200);
        expect(res.body.pagination.limit).toBe(limit);
      }
    });
  });
});
