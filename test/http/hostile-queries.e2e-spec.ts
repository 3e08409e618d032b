import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES, createRun, submitResults } from '../factories/runs.js';
import { HTTPS, OPERATOR, startApp, type TestApp } from '../support/app.js';

/** Hostile inputs on the routes added since 4968aee: none may answer 500. */
describe('review probes', () => {
  let t: TestApp;
  let projectId: string;
  let orgId: string;
  let runId: string;
  beforeAll(async () => {
    t = await startApp();
    const { org, key } = await createTenant(t, RUN_SCOPES);
    orgId = org.id;
    const project = await createProject(t, org.id);
    projectId = project.id;
    const run = await createRun(t, key, project.id, { name: 'Nightly' });
    runId = run.id;
    await submitResults(t, key, run.id, [
      { automation_id: 'a.b', title: 'T', status: 'failed', message: 'boom \\ % _ ok' },
    ]).expect(201);
  });
  afterAll(() => t.close());

  const probes = () => [
    `/internal/v1/projects/${projectId}/failures/search?q=${encodeURIComponent('\\')}x`,
    `/internal/v1/projects/${projectId}/failures/search?q=${encodeURIComponent('%\\')}`,
    `/internal/v1/projects/${projectId}/failures/search?q=${encodeURIComponent("'; select 1 --")}`,
    `/internal/v1/projects/${projectId}/failures/search?q=ab&runs=0`,
    `/internal/v1/projects/${projectId}/failures/search?q=ab&runs=1e3`,
    `/internal/v1/projects/${projectId}/failures/search?q=ab&offset=99999999999999999999`,
    `/internal/v1/projects/${projectId}/failures/search?q[]=ab`,
    `/internal/v1/projects/${projectId}/failures/search?q[a]=ab`,
    `/internal/v1/projects/${projectId}/failures/search?q=${'x'.repeat(300)}`,
    `/internal/v1/projects/${projectId}/failures/search?q=${encodeURIComponent('ǅǅǅ')}`,
    `/internal/v1/projects/${projectId}/failures/search?q=${encodeURIComponent('İİ')}`,
    `/internal/v1/projects/${projectId}/failures/search?q=${encodeURIComponent('ßẞ')}`,
    `/internal/v1/organizations/${orgId}/testcases/search?q=${encodeURIComponent('\\\\')}`,
    `/internal/v1/organizations/${orgId}/testcases/search?q=${encodeURIComponent('İİ')}`,
    `/internal/v1/organizations/${orgId}/testcases/search?q=ab&limit=100000`,
    `/internal/v1/projects/${projectId}/testruns?name=${encodeURIComponent('x'.repeat(256))}`,
    `/internal/v1/projects/${projectId}/testruns?name[]=x`,
    `/internal/v1/projects/${projectId}/testruns?created_after=2020-13-45`,
    `/internal/v1/projects/${projectId}/testruns?created_after=99999-01-01T00:00:00Z`,
    `/internal/v1/projects/${projectId}/testruns?branch=${encodeURIComponent('ǅ')}`,
    `/internal/v1/projects/${projectId}/overview/trend?name=Nightly&runs=100000`,
    `/internal/v1/projects/${projectId}/overview/trend?name=${encodeURIComponent('x'.repeat(256))}`,
    `/internal/v1/projects/${projectId}/overview/trend`,
    `/internal/v1/projects/${projectId}/overview/recurring-failures?runs=0`,
    `/internal/v1/projects/${projectId}/overview/recurring-failures?limit=999999`,
    `/internal/v1/projects/${projectId}/overview/recurring-failures?name[]=a`,
    `/internal/v1/projects/${projectId}/flaky-tests/export?window=0`,
    `/internal/v1/projects/${projectId}/flaky-tests/export?window=999999999`,
    `/internal/v1/projects/${projectId}/flaky-tests/export?min_executions=-1`,
    `/internal/v1/projects/${projectId}/flaky-tests/export?configuration=${'x'.repeat(100000)}`,
    `/internal/v1/projects/${projectId}/flaky-tests/export?branch[]=a`,
    `/internal/v1/testruns/${runId}/results/export?x=1`,
    `/internal/v1/testruns/not-a-uuid/results/export`,
    `/internal/v1/results/not-a-uuid/attachments`,
    `/internal/v1/results/00000000-0000-0000-0000-000000000000/attachments`,
  ];

  it('answers no 500 and every error in the envelope', async () => {
    const seen: string[] = [];
    for (const url of probes()) {
      const res = await t.http.get(url).set(OPERATOR);
      const code = (res.body as { error?: { code?: string } })?.error?.code ?? '';
      seen.push(`${res.status} ${code} ${url.slice(0, 140)}`);
    }
    expect(seen.filter((line) => line.startsWith('5'))).toEqual([]);
  });

  it('refuses an export without a token', async () => {
    await t.http.get(`/internal/v1/testruns/${runId}/results/export`).set(HTTPS).expect(401);
    await t.http
      .get(`/internal/v1/projects/${projectId}/flaky-tests/export`)
      .set(HTTPS)
      .expect(401);
  });
});
