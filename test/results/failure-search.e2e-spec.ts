import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES, createRun, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

/**
 * A project's recent results searched by error text (issue 31): message or failure type, case
 * and accents aside, in the project's latest runs only.
 */
describe('GET /internal/v1/projects/{id}/failures/search', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const search = (projectId: string, query: Record<string, string>) =>
    t.http.get(`/internal/v1/projects/${projectId}/failures/search`).query(query).set(OPERATOR);

  let clock = Date.UTC(2026, 5, 1);
  /** A run of `results`, dated a minute after the last, so the order never rests on the clock. */
  async function run(key: string, projectId: string, name: string, results: object[]) {
    const created = await createRun(t, key, projectId, { name });
    await submitResults(t, key, created.id, results).expect(201);
    clock += 60_000;
    await t.app
      .get(DataSource)
      .query('UPDATE test_run SET created_at = $2 WHERE id = $1', [created.id, new Date(clock)]);
    return created;
  }

  async function seeded() {
    const { org, key } = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, org.id);
    const older = await run(key, project.id, 'Nightly 1', [
      { automation_id: 'cart.old', status: 'failed', message: 'Naïve timeout in the cart' },
    ]);
    const newer = await run(key, project.id, 'Nightly 2', [
      {
        automation_id: 'cart.pays',
        title: 'Pays by card',
        status: 'failed',
        message: 'card declined: NAÏVE retry logic',
        configuration: 'firefox',
      },
      {
        automation_id: 'cart.type',
        status: 'blocked',
        failure_type: 'NaiveAssertionError',
      },
      { automation_id: 'cart.other', status: 'failed', message: 'expected 200, got 500' },
      // A pass never counts as an error, whatever its message.
      { automation_id: 'cart.passes', status: 'passed', message: 'naive but passed' },
      // LIKE's wildcards are literal.
      { automation_id: 'cart.percent', status: 'failed', message: '100% naïvety_check' },
    ]);
    return { org, key, project, older, newer };
  }

  it('finds "naive" in any case and accent, in messages and failure types, newest run first', async () => {
    const s = await seeded();
    const res = await search(s.project.id, { q: 'naive' }).expect(200);
    expect(res.body.pagination).toEqual({ total: 4, limit: 25, offset: 0, has_more: false });
    const found = res.body.data as Array<Record<string, unknown>>;
    // Newest run first, then by title ('Pays by card' before the automation ids as titles).
    expect(found.map((f) => f.automation_id)).toEqual([
      'cart.pays',
      'cart.percent',
      'cart.type',
      'cart.old',
    ]);
    expect(found[0]).toEqual({
      result_id: expect.any(String),
      test_run_id: s.newer.id,
      run_name: 'Nightly 2',
      run_created_at: expect.any(String),
      test_case_id: expect.any(String),
      title: 'Pays by card',
      automation_id: 'cart.pays',
      configuration: 'firefox',
      status: 'failed',
      failure_type: null,
      message: 'card declined: NAÏVE retry logic',
      created_at: expect.any(String),
    });
    expect(found[2]).toMatchObject({ failure_type: 'NaiveAssertionError', status: 'blocked' });
    expect(found[3]).toMatchObject({ test_run_id: s.older.id });

    // Accented in the search, plain in the text, and the other way round.
    const accented = await search(s.project.id, { q: 'NAÏVE' }).expect(200);
    expect(accented.body.pagination.total).toBe(4);
    expect((await search(s.project.id, { q: '100%' }).expect(200)).body.data).toHaveLength(1);
    expect((await search(s.project.id, { q: '0% n' }).expect(200)).body.data).toHaveLength(1);
    expect((await search(s.project.id, { q: 'y_c' }).expect(200)).body.data).toHaveLength(1);
    expect((await search(s.project.id, { q: 'y%c' }).expect(200)).body.data).toHaveLength(0);
  });

  it('searches only the latest `runs` runs, and pages', async () => {
    const s = await seeded();
    const latest = await search(s.project.id, { q: 'naive', runs: '1' }).expect(200);
    expect(latest.body.data.map((f: { test_run_id: string }) => f.test_run_id)).toEqual([
      s.newer.id,
      s.newer.id,
      s.newer.id,
    ]);
    const paged = await search(s.project.id, { q: 'naive', limit: '2', offset: '2' }).expect(200);
    expect(paged.body.pagination).toEqual({ total: 4, limit: 2, offset: 2, has_more: false });
    expect(paged.body.data.map((f: { automation_id: string }) => f.automation_id)).toEqual([
      'cart.type',
      'cart.old',
    ]);
  });

  it.each([
    ['q', {}],
    ['q', { q: 'a' }],
    ['q', { q: 'x'.repeat(256) }],
    ['runs', { q: 'naive', runs: '101' }],
    ['runs', { q: 'naive', runs: '0' }],
  ])('refuses a bad %s: 400 naming it', async (field, query) => {
    const s = await seeded();
    const res = await search(s.project.id, query).expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field } });
  });

  it('finds only the project’s own results; unknown project 404; an API key 401', async () => {
    const a = await seeded();
    const b = await seeded();
    const found = (await search(b.project.id, { q: 'naive' }).expect(200)).body.data;
    expect(
      found.every((f: { test_run_id: string }) => [b.older.id, b.newer.id].includes(f.test_run_id)),
    ).toBe(true);
    expect(found.map((f: { test_run_id: string }) => f.test_run_id)).not.toContain(a.newer.id);
    await search(UNKNOWN_ID, { q: 'naive' }).expect(404);
    await t.http
      .get(`/internal/v1/projects/${b.project.id}/failures/search?q=naive`)
      .set(withKey(b.key))
      .expect(401);
  });
});
