import { DataSource } from 'typeorm';
import { createProject, createTestCase } from '../factories/catalog.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const SCOPES = ['results:read', 'quarantine:manage'];
const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';
const TOMORROW = () => new Date(Date.now() + 86_400_000).toISOString();

describe('quarantine', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await startApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function tenantWithCases(count = 1, scopes = SCOPES) {
    const tenant = await createTenant(t, scopes);
    const project = await createProject(t, tenant.org.id);
    const cases = [];
    for (let i = 0; i < count; i++)
      cases.push(await createTestCase(t, project.id, { automation_id: `suite.case${i}` }));
    return { ...tenant, project, cases };
  }

  const entryPath = (projectId: string, caseId: string) =>
    `/api/v1/projects/${projectId}/quarantine/${caseId}`;

  const eventsOf = (organizationId: string) =>
    db.query(
      'SELECT type, data FROM domain_event WHERE organization_id = $1 ORDER BY created_at, id',
      [organizationId],
    );

  it('puts a case in quarantine, updates it with a second PUT, and records both', async () => {
    const { org, key, project, cases } = await tenantWithCases();
    const expires = TOMORROW();
    const first = await t.http
      .put(entryPath(project.id, cases[0].id))
      .set(withKey(key))
      .send({ reason: '  Times out on shared runners  ', expires_at: expires })
      .expect(200);
    expect(first.body).toEqual({
      test_case_id: cases[0].id,
      automation_id: 'suite.case0',
      reason: 'Times out on shared runners',
      expires_at: expires,
      created_at: expect.any(String),
    });
    const second = await t.http
      .put(entryPath(project.id, cases[0].id))
      .set(withKey(key))
      .send({ reason: 'Tracked in QA-1' })
      .expect(200);
    expect(second.body).toEqual({
      ...first.body,
      reason: 'Tracked in QA-1',
      expires_at: null,
      created_at: first.body.created_at,
    });
    expect(await eventsOf(org.id)).toEqual([
      { type: 'testcase.quarantined.v1', data: first.body },
      { type: 'testcase.quarantined.v1', data: second.body },
    ]);
  });

  it('lists active entries newest first, paginated', async () => {
    const { key, project, cases } = await tenantWithCases(3);
    for (const c of cases)
      await t.http
        .put(entryPath(project.id, c.id))
        .set(withKey(key))
        .send({ reason: 'flaky' })
        .expect(200);
    await db.query(
      `UPDATE quarantine_entry SET created_at = now() - make_interval(mins => $2)
       WHERE test_case_id = $1`,
      [cases[0].id, 10],
    );
    await db.query(
      `UPDATE quarantine_entry SET created_at = now() - make_interval(mins => $2)
       WHERE test_case_id = $1`,
      [cases[1].id, 5],
    );
    const list = await t.http
      .get(`/api/v1/projects/${project.id}/quarantine?limit=2`)
      .set(withKey(key))
      .expect(200);
    expect(list.body.data.map((e: { test_case_id: string }) => e.test_case_id)).toEqual([
      cases[2].id,
      cases[1].id,
    ]);
    expect(list.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
    const past = await t.http
      .get(`/api/v1/projects/${project.id}/quarantine?offset=5`)
      .set(withKey(key))
      .expect(200);
    expect(past.body.pagination).toMatchObject({ total: 3, has_more: false });
  });

  it('lists every active entry for the console, flaky or not, with its case’s title', async () => {
    const { key, project, cases } = await tenantWithCases(2);
    for (const c of cases)
      await t.http
        .put(entryPath(project.id, c.id))
        .set(withKey(key))
        .send({ reason: 'Known outage' })
        .expect(200);
    const internal = await t.http
      .get(`/internal/v1/projects/${project.id}/quarantine`)
      .set(OPERATOR)
      .expect(200);
    const pub = await t.http
      .get(`/api/v1/projects/${project.id}/quarantine`)
      .set(withKey(key))
      .expect(200);
    // The public entries, each with its title and whether its case is flaky (neither has run).
    expect(internal.body.data).toEqual(
      pub.body.data.map((entry: { test_case_id: string }) => ({
        ...entry,
        title: cases.find((c) => c.id === entry.test_case_id)?.title,
        flaky: false,
      })),
    );
    expect(internal.body.pagination).toEqual(pub.body.pagination);
    // The public route keeps its own fields.
    expect(Object.keys(pub.body.data[0]).sort()).toEqual([
      'automation_id',
      'created_at',
      'expires_at',
      'reason',
      'test_case_id',
    ]);
  });

  it('takes a case out (204, recorded), then answers 404', async () => {
    const { org, key, project, cases } = await tenantWithCases();
    const put = await t.http
      .put(entryPath(project.id, cases[0].id))
      .set(withKey(key))
      .send({ reason: 'flaky' })
      .expect(200);
    const gone = await t.http.delete(entryPath(project.id, cases[0].id)).set(withKey(key));
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    await t.http.delete(entryPath(project.id, cases[0].id)).set(withKey(key)).expect(404);
    expect((await eventsOf(org.id)).map((e: { type: string }) => e.type)).toEqual([
      'testcase.quarantined.v1',
      'testcase.unquarantined.v1',
    ]);
    expect((await eventsOf(org.id))[1].data).toEqual(put.body);
    const list = await t.http
      .get(`/api/v1/projects/${project.id}/quarantine`)
      .set(withKey(key))
      .expect(200);
    expect(list.body.data).toEqual([]);
  });

  it('treats an expired entry as gone, and replaces it as new on the next PUT', async () => {
    const { key, project, cases } = await tenantWithCases();
    await t.http
      .put(entryPath(project.id, cases[0].id))
      .set(withKey(key))
      .send({ reason: 'old', expires_at: TOMORROW() })
      .expect(200);
    await db.query(
      `UPDATE quarantine_entry SET expires_at = now() - interval '1 minute',
         created_at = now() - interval '2 days' WHERE test_case_id = $1`,
      [cases[0].id],
    );
    const list = await t.http
      .get(`/api/v1/projects/${project.id}/quarantine`)
      .set(withKey(key))
      .expect(200);
    expect(list.body).toMatchObject({ data: [], pagination: { total: 0 } });
    await t.http.delete(entryPath(project.id, cases[0].id)).set(withKey(key)).expect(404);
    const renewed = await t.http
      .put(entryPath(project.id, cases[0].id))
      .set(withKey(key))
      .send({ reason: 'again' })
      .expect(200);
    expect(Date.now() - Date.parse(renewed.body.created_at)).toBeLessThan(60_000);
  });

  it.each([
    [{}, 'reason'],
    [{ reason: '' }, 'reason'],
    [{ reason: '   ' }, 'reason'],
    [{ reason: 42 }, 'reason'],
    [{ reason: 'x'.repeat(1001) }, 'reason'],
    [{ reason: 'ok', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    [{ reason: 'ok', expires_at: '2999-01-01T00:00:00' }, 'expires_at'],
    [{ reason: 'ok', expires_at: 'tomorrow' }, 'expires_at'],
    [{ reason: 'ok', expires_at: 1 }, 'expires_at'],
    [{ reason: 'ok', other: 1 }, 'other'],
  ])('answers 400 for %j naming %s', async (body, field) => {
    const { key, project, cases } = await tenantWithCases();
    const res = await t.http
      .put(entryPath(project.id, cases[0].id))
      .set(withKey(key))
      .send(body)
      .expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field } });
  });

  it('answers 404 for a case of another project or organization, and for unknown ids', async () => {
    const mine = await tenantWithCases();
    const sibling = await createProject(t, mine.org.id);
    const theirs = await tenantWithCases();
    const put = (projectId: string, caseId: string) =>
      t.http.put(entryPath(projectId, caseId)).set(withKey(mine.key)).send({ reason: 'x' });
    expect((await put(sibling.id, mine.cases[0].id)).body.details).toEqual({
      resource: 'test_case',
    });
    await put(mine.project.id, theirs.cases[0].id).expect(404);
    await put(theirs.project.id, theirs.cases[0].id).expect(404);
    await put(mine.project.id, UNKNOWN_ID).expect(404);
    await put(mine.project.id, 'nope').expect(404);
    await t.http
      .delete(entryPath(theirs.project.id, theirs.cases[0].id))
      .set(withKey(mine.key))
      .expect(404);
    await t.http
      .get(`/api/v1/projects/${theirs.project.id}/quarantine`)
      .set(withKey(mine.key))
      .expect(404);
    const count = await db.query(
      'SELECT count(*)::int AS n FROM quarantine_entry WHERE organization_id = $1',
      [mine.org.id],
    );
    expect(count[0].n).toBe(0);
  });

  it('needs quarantine:manage to change and results:read to list', async () => {
    const { org, project, cases } = await tenantWithCases();
    const { key: reader } = await createApiKey(t, org.id, ['results:read']);
    const { key: manager } = await createApiKey(t, org.id, ['quarantine:manage']);
    for (const res of [
      await t.http
        .put(entryPath(project.id, cases[0].id))
        .set(withKey(reader))
        .send({ reason: 'x' }),
      await t.http.delete(entryPath(project.id, cases[0].id)).set(withKey(reader)),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.details.required_scopes).toEqual(['quarantine:manage']);
    }
    const list = await t.http
      .get(`/api/v1/projects/${project.id}/quarantine`)
      .set(withKey(manager));
    expect(list.status).toBe(403);
    expect(list.body.details.required_scopes).toEqual(['results:read']);
  });

  it('lists both event types in the catalogue', async () => {
    const { key } = await tenantWithCases(0);
    const res = await t.http.get('/api/v1/events').set(withKey(key)).expect(200);
    expect(res.body.data).toEqual(
      expect.arrayContaining([
        {
          type: 'testcase.quarantined.v1',
          resource: 'quarantine_entry',
          description: expect.any(String),
        },
        {
          type: 'testcase.unquarantined.v1',
          resource: 'quarantine_entry',
          description: expect.any(String),
        },
      ]),
    );
  });
});
