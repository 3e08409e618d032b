import { jest } from '@jest/globals';
import { createProject, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import { csvRecords, parseCsv } from '../support/csv.js';
import { FlakyTestsRepository } from '../../src/flakiness/flaky-tests.repository.js';
import { FLAKY_EXPORT_PAGE_SIZE } from '../../src/flakiness/flaky-tests-export.service.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

/** The flaky list as CSV (issue 31): the list's items, in its order, streamed page by page. */
describe('GET /internal/v1/projects/{id}/flaky-tests/export', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const exportOf = (projectId: string, query = '') =>
    t.http
      .get(`/internal/v1/projects/${projectId}/flaky-tests/export${query}`)
      .set(OPERATOR)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });

  /** A project whose cases `names` alternate passed and failed over six submitted runs. */
  async function flakyProject(names: Record<string, string>) {
    const tenant = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, tenant.org.id, { key: `FL${Date.now() % 100000}` });
    for (const [automationId, title] of Object.entries(names))
      await createTestCase(t, project.id, { automation_id: automationId, title });
    for (let i = 0; i < 6; i++) {
      const run = await createRun(t, tenant.key, project.id);
      const status = i % 2 === 0 ? 'passed' : 'failed';
      await submitResults(
        t,
        tenant.key,
        run.id,
        Object.keys(names).map((automationId) => ({ automation_id: automationId, status })),
      ).expect(201);
      await t.http
        .patch(`/api/v1/testruns/${run.id}`)
        .set(withKey(tenant.key))
        .send({ status: 'submitted' })
        .expect(200);
    }
    return { ...tenant, project };
  }

  it('writes the list as the flaky tests route pages it, with formulas made text', async () => {
    const p = await flakyProject({
      'checkout.pays': 'Pays, then "refunds"',
      'checkout.sum': '=SUM(1,2)',
    });
    const listed = await t.http
      .get(`/internal/v1/projects/${p.project.id}/flaky-tests`)
      .set(OPERATOR)
      .expect(200);
    const res = await exportOf(p.project.id).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /_flaky_tests\.csv"; filename\*=UTF-8''FL\d+%20flaky%20tests\.csv$/,
    );
    const text = res.body as string;
    expect(parseCsv(text)[0]).toEqual([
      'test_case_id',
      'automation_id',
      'title',
      'configuration',
      'executions',
      'flips',
      'flip_rate',
      'retried_passes',
      'last_status',
      'quarantined',
    ]);
    const records = csvRecords(text);
    expect(records.map((r) => r.test_case_id)).toEqual(
      listed.body.data.map((item: { test_case_id: string }) => item.test_case_id),
    );
    expect(records.find((r) => r.automation_id === 'checkout.pays')).toMatchObject({
      title: 'Pays, then "refunds"',
      executions: '6',
      flips: '5',
      flip_rate: '1',
      last_status: 'failed',
      quarantined: 'false',
    });
    expect(records.find((r) => r.automation_id === 'checkout.sum')?.title).toBe(`'=SUM(1,2)`);
    expect(text).toContain(`"'=SUM(1,2)"`);
  });

  it('takes the list’s filters (min_executions), and refuses bad ones with a 400', async () => {
    const p = await flakyProject({ 'a.flips': 'A' });
    expect(
      csvRecords((await exportOf(p.project.id, '?min_executions=7').expect(200)).body),
    ).toEqual([]);
    const bad = await t.http
      .get(`/internal/v1/projects/${p.project.id}/flaky-tests/export?window=1`)
      .set(OPERATOR)
      .expect(400);
    expect(bad.body).toMatchObject({ error: 'invalid_request', details: { field: 'window' } });
  });

  it('reads the list a page at a time', async () => {
    const names = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `paged.case${String(i).padStart(2, '0')}`,
        `Case ${i}`,
      ]),
    );
    const p = await flakyProject(names);
    const repository = t.app.get(FlakyTestsRepository);
    const list = repository.list.bind(repository);
    const limits: Array<number | null> = [];
    const watched = jest.spyOn(repository, 'list').mockImplementation((org, project, filter) => {
      limits.push(filter.limit);
      return list(org, project, filter);
    });
    try {
      const records = csvRecords((await exportOf(p.project.id).expect(200)).body);
      expect(records).toHaveLength(12);
      expect(limits).toEqual([FLAKY_EXPORT_PAGE_SIZE]);
    } finally {
      watched.mockRestore();
    }
  });

  it('answers 404 for an unknown project, 401 to an API key', async () => {
    await t.http
      .get(`/internal/v1/projects/${UNKNOWN_ID}/flaky-tests/export`)
      .set(OPERATOR)
      .expect(404);
    const p = await flakyProject({ 'k.case': 'K' });
    await t.http
      .get(`/internal/v1/projects/${p.project.id}/flaky-tests/export`)
      .set(withKey(p.key))
      .expect(401);
  });

  it('lists only the project’s own tests: another organization’s stay out', async () => {
    const a = await flakyProject({ 'tenant.a': 'Only in A' });
    const b = await flakyProject({ 'tenant.b': 'Only in B' });
    const text = (await exportOf(b.project.id).expect(200)).body as string;
    expect(text).toContain('tenant.b');
    expect(text).not.toContain('tenant.a');
    expect(a.project.id).not.toBe(b.project.id);
  });
});
