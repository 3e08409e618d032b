import { OPERATOR, startApp, type TestApp } from '../support/app.js';
import {
  get,
  ids,
  runWith,
  setFailure,
  UNKNOWN_ID,
  workspace,
  type Workspace,
} from './fixtures.js';

describe('results intelligence: GET /testruns/{id}/comparison', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const compare = (w: Workspace, run: string, query = '') =>
    get(t, w.key, `/testruns/${run}/comparison${query}`);

  describe('the categories', () => {
    let w: Workspace;
    let baseline: string;
    let run: string;
    beforeAll(async () => {
      w = await workspace(t);
      baseline = await runWith(t, w, {
        'c.a': 'passed',
        'c.b': 'failed',
        'c.c': 'blocked',
        'c.d': 'passed',
        'c.e': 'failed',
        'c.f': 'skipped',
      });
      run = await runWith(
        t,
        w,
        {
          'c.h': 'failed',
          'c.a': 'failed',
          'c.b': 'blocked',
          'c.c': 'passed',
          'c.d': 'passed',
          'c.f': 'failed',
          'c.g': 'passed',
        },
        {
          status: 'in_progress',
          extra: { 'c.a': { message: 'boom' }, 'c.d': { retries: 1 } },
        },
      );
      await setFailure(t, run, w.cases.get('c.a') as string, { signature: 'aaaaaaaaaaaaaaaa' });
    });

    it('puts each case in at most one category and counts them all', async () => {
      const res = await compare(w, run).expect(200);
      const c = (id: string) => w.cases.get(id) as string;
      expect(res.body).toEqual({
        test_run_id: run,
        baseline_run_id: baseline,
        summary: {
          new_failures: 3,
          still_failing: 1,
          fixed: 1,
          new_tests: 1,
          missing_tests: 1,
          flaky: 1,
        },
        new_failures: expect.any(Array),
        still_failing: [
          {
            test_case_id: c('c.b'),
            configuration: null,
            automation_id: 'c.b',
            title: expect.any(String),
            status: 'blocked',
            baseline_status: 'failed',
            message: null,
            signature: expect.stringMatching(/^[0-9a-f]{16}$/),
          },
        ],
        fixed: [expect.objectContaining({ test_case_id: c('c.c'), baseline_status: 'blocked' })],
      });
      expect(ids(res.body.new_failures)).toEqual([c('c.a'), c('c.f'), c('c.h')]);
      expect(res.body.new_failures[0]).toMatchObject({
        status: 'failed',
        baseline_status: 'passed',
        message: 'boom',
        signature: 'aaaaaaaaaaaaaaaa',
      });
      expect(res.body.new_failures[2].baseline_status).toBeNull();
    });

    it('takes an explicit baseline of the same project', async () => {
      const res = await compare(w, baseline, `?baseline_run_id=${run}`).expect(200);
      expect(res.body.baseline_run_id).toBe(run);
      // Seen from the other side: c.e failed and is absent from the baseline, so it is new.
      expect(res.body.summary).toEqual({
        new_failures: 2,
        still_failing: 1,
        fixed: 1,
        new_tests: 0,
        missing_tests: 2,
        flaky: 0,
      });
    });

    it.each([
      ['not-a-uuid', 'a malformed id'],
      [UNKNOWN_ID, 'an unknown run'],
    ])('refuses %s as baseline_run_id (%s)', async (value) => {
      const res = await compare(w, run, `?baseline_run_id=${value}`).expect(400);
      expect(res.body.details.field).toBe('baseline_run_id');
    });

    it('refuses the run itself, a run of another project or organization as baseline', async () => {
      const same = await compare(w, run, `?baseline_run_id=${run}`).expect(400);
      expect(same.body.details.field).toBe('baseline_run_id');
      const other = await workspace(t);
      const foreign = await runWith(t, other, { 'c.a': 'passed' });
      const res = await compare(w, run, `?baseline_run_id=${foreign}`).expect(400);
      expect(res.body.details.field).toBe('baseline_run_id');
      await get(t, other.key, `/testruns/${run}/comparison`).expect(404);
      const project = await t.http
        .post(`/internal/v1/organizations/${w.orgId}/projects`)
        .set(OPERATOR)
        .send({ name: 'second', key: `SEC${Date.now() % 100000}` })
        .expect(201);
      const elsewhere = await runWith(t, { ...w, projectId: project.body.id }, { 'z.z': 'passed' });
      const wrong = await compare(w, run, `?baseline_run_id=${elsewhere}`).expect(400);
      expect(wrong.body.details.field).toBe('baseline_run_id');
    });

    it('refuses an unknown query parameter, needs results:read, 404s unknown runs', async () => {
      const res = await compare(w, run, '?limit=5').expect(400);
      expect(res.body.details.field).toBe('limit');
      await compare(w, UNKNOWN_ID).expect(404);
      const reader = await workspace(t, ['testruns:read']);
      await get(t, reader.key, `/testruns/${run}/comparison`).expect(403);
    });
  });

  // The default baseline and the bound of 100 cases per category are at the service tier
  // (test/insights/run-insights.medium-spec.ts).
});
