import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

/** One result as the console's detail view reads it (issue 31). */
describe('GET /internal/v1/results/{id}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  /** A failed result, with attempts and defects, in a run of a build. */
  async function failedResult(build: object | null = { build_number: '1042', branch: 'main' }) {
    const tenant = await createTenant(t, [...RUN_SCOPES, 'builds:create']);
    const project = await createProject(t, tenant.org.id);
    let buildId: string | undefined;
    if (build !== null) {
      const made = await t.http
        .post('/api/v1/builds')
        .set(withKey(tenant.key))
        .send({ name: 'web-shop', project_id: project.id, commit_sha: SHA, ...build })
        .expect(202);
      buildId = made.body.id;
    }
    const run = await createRun(t, tenant.key, project.id, {
      name: 'Nightly',
      ...(buildId ? { build_id: buildId } : {}),
    });
    const res = await submitResults(t, tenant.key, run.id, [
      {
        automation_id: 'shop.Pay.card',
        title: 'Pays by card',
        status: 'failed',
        duration_ms: 1250,
        message: 'card declined (code 4021)',
        failure_type: 'AssertionError',
        stack_trace: 'AssertionError: card declined\n    at pay (pay.ts:12:3)',
        configuration: 'firefox',
        defects: ['SHOP-12', 'a/b?c'],
        attempts: [{ status: 'failed', duration_ms: 900, message: 'timeout' }],
      },
    ]).expect(201);
    return { ...tenant, project, run, buildId, result: res.body.data[0] };
  }
  const detail = (id: string) => t.http.get(`/internal/v1/results/${id}`).set(OPERATOR);

  it('answers the result with its case, run, build, markers and defects', async () => {
    const f = await failedResult();
    const res = await detail(f.result.id).expect(200);
    expect(res.body).toEqual({
      ...f.result,
      test_case_title: 'Pays by card',
      automation_id: 'shop.Pay.card',
      case_flaky: false,
      quarantined: false,
      project_id: f.project.id,
      test_run_name: 'Nightly',
      test_run_status: 'in_progress',
      build: {
        id: f.buildId,
        name: 'web-shop',
        build_number: '1042',
        branch: 'main',
        commit_sha: SHA,
      },
      defect_links: [
        { id: 'SHOP-12', url: null },
        { id: 'a/b?c', url: null },
      ],
    });
    expect(res.body).toMatchObject({
      stack_trace: 'AssertionError: card declined\n    at pay (pay.ts:12:3)',
      failure_type: 'AssertionError',
      configuration: 'firefox',
      attempts: [{ status: 'failed', duration_ms: 900, message: 'timeout' }],
    });
  });

  it('links each defect id through the project’s template, the id encoded', async () => {
    const f = await failedResult();
    await t.http
      .patch(`/internal/v1/projects/${f.project.id}/defect-url-template`)
      .set(OPERATOR)
      .send({ defect_url_template: 'https://jira.example.com/browse/{id}' })
      .expect(200);
    const res = await detail(f.result.id).expect(200);
    expect(res.body.defect_links).toEqual([
      { id: 'SHOP-12', url: 'https://jira.example.com/browse/SHOP-12' },
      { id: 'a/b?c', url: 'https://jira.example.com/browse/a%2Fb%3Fc' },
    ]);
  });

  it('answers build null for a run without one', async () => {
    const f = await failedResult(null);
    expect((await detail(f.result.id).expect(200)).body.build).toBeNull();
  });

  it('answers 404 for an unknown or malformed id, and refuses an API key', async () => {
    expect((await detail(UNKNOWN_ID).expect(404)).body).toMatchObject({ error: 'not_found' });
    await detail('not-a-uuid').expect(404);
    const f = await failedResult();
    await t.http.get(`/internal/v1/results/${f.result.id}`).set(withKey(f.key)).expect(401);
  });
});
