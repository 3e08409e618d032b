import { INSIGHT_SCOPES, runWith, UNKNOWN_ID, workspace, type Workspace } from './fixtures.js';
import { createRun } from '../factories/runs.js';
import { HTTPS, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

/**
 * The internal routes of the console's run page: a run's failures, comparison and gate, the
 * results search and markers, submitting results and changing a run's status as the operator.
 * Each answers what the public route answers, for the run's organization.
 */
describe('run page (internal API)', () => {
  let t: TestApp;
  let w: Workspace;
  /** A completed run, then one like it with two new failures (one cause) and a fixed case. */
  let baselineId: string;
  let runId: string;

  beforeAll(async () => {
    t = await startApp();
    w = await workspace(t, [...INSIGHT_SCOPES, 'quarantine:manage']);
    baselineId = await runWith(
      t,
      w,
      { 'shop.Cart.adds': 'passed', 'shop.Pay.card': 'passed', 'shop.Pay.invoice': 'failed' },
      { extra: { 'shop.Pay.invoice': { message: 'timeout after 30 s' } } },
    );
    runId = await runWith(
      t,
      w,
      {
        'shop.Cart.adds': 'passed',
        'shop.Pay.card': 'failed',
        'shop.Pay.invoice': 'passed',
        'shop.Search.finds': 'failed',
      },
      {
        status: 'in_progress',
        extra: {
          'shop.Pay.card': { message: 'card declined (code 4021)' },
          'shop.Search.finds': { message: 'card declined (code 4022)' },
        },
      },
    );
  });
  afterAll(() => t.close());

  const internal = (path: string) => t.http.get(`/internal/v1/testruns/${path}`).set(OPERATOR);
  const publicView = (path: string) =>
    t.http.get(`/api/v1/testruns/${path}`).set(withKey(w.key)).expect(200);

  describe('GET …/failures, …/comparison, …/gate', () => {
    it('answers what the public routes answer, the failure groups’ cases named', async () => {
      const failures = await internal(`${runId}/failures`);
      expect(failures.status).toBe(200);
      const pub = await publicView(`${runId}/failures`);
      expect(
        failures.body.data.map(({ test_cases: _c, ...group }: Record<string, unknown>) => group),
      ).toEqual(pub.body.data);
      expect(failures.body.pagination).toEqual(pub.body.pagination);
      // Both messages normalize alike: one group of two.
      expect(failures.body.data).toHaveLength(1);
      expect(failures.body.data[0].count).toBe(2);
      // Each case with its failing result, which the console's failures tab opens.
      const failed = await publicView(`${runId}/results?status=failed`);
      const resultOf = (name: string) =>
        failed.body.data.find((r: { test_case_id: string }) => r.test_case_id === w.cases.get(name))
          .id;
      expect(failures.body.data[0].test_cases).toEqual(
        expect.arrayContaining([
          {
            id: w.cases.get('shop.Pay.card'),
            title: 'shop.Pay.card',
            automation_id: 'shop.Pay.card',
            result_id: resultOf('shop.Pay.card'),
          },
          {
            id: w.cases.get('shop.Search.finds'),
            title: 'shop.Search.finds',
            automation_id: 'shop.Search.finds',
            result_id: resultOf('shop.Search.finds'),
          },
        ]),
      );

      const comparison = await internal(`${runId}/comparison`);
      expect(comparison.status).toBe(200);
      expect(comparison.body).toEqual((await publicView(`${runId}/comparison`)).body);
      expect(comparison.body.baseline_run_id).toBe(baselineId);
      expect(comparison.body.summary).toMatchObject({
        new_failures: 2,
        fixed: 1,
        still_failing: 0,
      });
      const against = await internal(`${runId}/comparison?baseline_run_id=${baselineId}`);
      expect(against.body).toEqual(comparison.body);

      const gate = await internal(`${runId}/gate`);
      expect(gate.status).toBe(200);
      // Each answer is evaluated when asked: the same but for that moment.
      expect(gate.body).toEqual({
        ...(await publicView(`${runId}/gate`)).body,
        evaluated_at: expect.any(String),
      });
      expect(gate.body.passed).toBe(false);
    });

    it('answers 404 for an unknown run, 400 for bad input, 401 without the operator', async () => {
      for (const path of ['failures', 'comparison', 'gate']) {
        const unknown = await internal(`${UNKNOWN_ID}/${path}`);
        expect(unknown.status).toBe(404);
        expect(unknown.body.error).toBe('not_found');
        const anonymous = await t.http.get(`/internal/v1/testruns/${runId}/${path}`).set(HTTPS);
        expect(anonymous.status).toBe(401);
        const withApiKey = await t.http
          .get(`/internal/v1/testruns/${runId}/${path}`)
          .set(withKey(w.key));
        expect(withApiKey.status).toBe(401);
      }
      // A malformed id names no run, as on the public routes.
      expect((await internal('not-a-uuid/gate')).status).toBe(404);
      expect((await internal(`${runId}/failures?limit=0`)).status).toBe(400);
      const badBaseline = await internal(`${runId}/comparison?baseline_run_id=nope`);
      expect(badBaseline.status).toBe(400);
      expect(badBaseline.body.details.field).toBe('baseline_run_id');
      // In the run's organization only: another one's run is no baseline.
      const other = await workspace(t);
      const foreign = await runWith(t, other, { 'shop.Cart.adds': 'passed' });
      const elsewhere = await internal(`${runId}/comparison?baseline_run_id=${foreign}`);
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body.details.field).toBe('baseline_run_id');
    });
  });

  describe('GET …/results with q, and the flaky and quarantine markers', () => {
    it('finds cases by title or automation id, case-insensitively, wildcards literal', async () => {
      const found = async (q: string) => {
        const res = await internal(`${runId}/results?q=${encodeURIComponent(q)}`);
        expect(res.status).toBe(200);
        return (res.body.data as Array<{ automation_id: string }>)
          .map((r) => r.automation_id)
          .sort();
      };
      expect(await found('PAY.')).toEqual(['shop.Pay.card', 'shop.Pay.invoice']);
      expect(await found('search')).toEqual(['shop.Search.finds']);
      expect(await found('%')).toEqual([]);
      expect(await found('shop_Pay')).toEqual([]);
      const filtered = await internal(`${runId}/results?q=pay&status=failed`);
      expect(filtered.body.data.map((r: { automation_id: string }) => r.automation_id)).toEqual([
        'shop.Pay.card',
      ]);
      expect(filtered.body.pagination.total).toBe(1);
      expect((await internal(`${runId}/results?q=`)).status).toBe(400);
      expect((await internal(`${runId}/results?q=${'x'.repeat(256)}`)).status).toBe(400);
    });

    it('lists failed and blocked results first with order=failures_first, else newest first', async () => {
      const o = await workspace(t);
      const run = await createRun(t, o.key, o.projectId, { name: 'Ordered' });
      // One call each, so that each result is stored after the one before.
      for (const [automation_id, status] of [
        ['o.first', 'passed'],
        ['o.fails', 'failed'],
        ['o.blocked', 'blocked'],
        ['o.last', 'passed'],
      ]) {
        await t.http
          .post(`/internal/v1/testruns/${run.id}/results`)
          .set(OPERATOR)
          .send({ results: [{ automation_id, status }] })
          .expect(201);
      }
      const order = async (query: string) => {
        const res = await internal(`${run.id}/results${query}`);
        expect(res.status).toBe(200);
        return (res.body.data as Array<{ automation_id: string }>).map((r) => r.automation_id);
      };
      expect(await order('')).toEqual(['o.last', 'o.blocked', 'o.fails', 'o.first']);
      expect(await order('?order=newest_first')).toEqual(await order(''));
      expect(await order('?order=failures_first')).toEqual([
        'o.blocked',
        'o.fails',
        'o.last',
        'o.first',
      ]);
      // With the other filters, and a page at a time (its total counts every match).
      const page = await internal(`${run.id}/results?order=failures_first&limit=1&offset=1`);
      expect(page.body.data.map((r: { automation_id: string }) => r.automation_id)).toEqual([
        'o.fails',
      ]);
      expect(page.body.pagination.total).toBe(4);
      // Pages that cross from the failures to the rest, and past them.
      const ids = async (query: string) =>
        (await internal(`${run.id}/results?order=failures_first&${query}`)).body.data.map(
          (r: { automation_id: string }) => r.automation_id,
        );
      expect(await ids('limit=2&offset=1')).toEqual(['o.fails', 'o.last']);
      expect(await ids('limit=2&offset=3')).toEqual(['o.first']);
      expect(await ids('limit=1&offset=2')).toEqual(['o.last']);
      expect(await ids('status=failed')).toEqual(['o.fails']);
      expect(await order('?order=failures_first&q=O.')).toEqual([
        'o.blocked',
        'o.fails',
        'o.last',
        'o.first',
      ]);
      expect(await order('?order=failures_first&status=passed')).toEqual(['o.last', 'o.first']);
      expect(await order('?order=failures_first&include_history=true')).toEqual([
        'o.blocked',
        'o.fails',
        'o.last',
        'o.first',
      ]);
      const bad = await internal(`${run.id}/results?order=oldest_first`);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'invalid_request', details: { field: 'order' } });
    });

    it('marks results whose case is on the flaky list or in quarantine', async () => {
      const m = await workspace(t, [...INSIGHT_SCOPES, 'quarantine:manage']);
      for (const status of ['passed', 'failed', 'passed', 'failed', 'passed']) {
        await runWith(t, m, { 'm.flips': status, 'm.steady': 'passed', 'm.held': 'passed' });
      }
      const run = await runWith(
        t,
        m,
        { 'm.flips': 'failed', 'm.steady': 'passed', 'm.held': 'failed' },
        { status: 'in_progress' },
      );
      await t.http
        .put(`/api/v1/projects/${m.projectId}/quarantine/${m.cases.get('m.held')}`)
        .set(withKey(m.key))
        .send({ reason: 'known outage' })
        .expect(200);
      const res = await internal(`${run}/results`);
      expect(res.status).toBe(200);
      const markers = Object.fromEntries(
        (
          res.body.data as Array<{
            automation_id: string;
            case_flaky: boolean;
            quarantined: boolean;
          }>
        ).map((r) => [r.automation_id, [r.case_flaky, r.quarantined]]),
      );
      expect(markers).toEqual({
        'm.flips': [true, false],
        'm.steady': [false, false],
        'm.held': [false, true],
      });
    });
  });

  describe('POST /internal/v1/testruns/{id}/results', () => {
    it('stores results as the public route does, replays an idempotent retry', async () => {
      const run = await createRun(t, w.key, w.projectId, { name: 'Manual' });
      const body = {
        results: [
          {
            automation_id: 'shop.Manual.checks',
            title: 'Checks by hand',
            status: 'passed',
            duration_ms: 1200,
          },
        ],
      };
      const first = await t.http
        .post(`/internal/v1/testruns/${run.id}/results`)
        .set({ ...OPERATOR, 'Idempotency-Key': 'manual-1' })
        .send(body);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ accepted: 1, created_test_cases: 1 });
      expect(first.body.data[0]).toMatchObject({ status: 'passed', duration_ms: 1200 });
      const again = await t.http
        .post(`/internal/v1/testruns/${run.id}/results`)
        .set({ ...OPERATOR, 'Idempotency-Key': 'manual-1' })
        .send(body);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const counted = await publicView(run.id);
      expect(counted.body.counts).toMatchObject({ total: 1, passed: 1 });
    });

    it('refuses what the public route refuses: 400, 404, 409, 401', async () => {
      const run = await createRun(t, w.key, w.projectId);
      const post = (id: string, body: unknown) =>
        t.http
          .post(`/internal/v1/testruns/${id}/results`)
          .set(OPERATOR)
          .send(body as object);
      const noStatus = await post(run.id, { results: [{ automation_id: 'x' }] });
      expect(noStatus.status).toBe(400);
      expect(noStatus.body.details.field).toBe('results[0].status');
      const badDuration = await post(run.id, {
        results: [{ automation_id: 'x', status: 'passed', duration_ms: -1 }],
      });
      expect(badDuration.status).toBe(400);
      expect((await post(run.id, { results: [] })).status).toBe(400);
      expect((await post(run.id, { results: [{ status: 'passed' }], extra: 1 })).status).toBe(400);
      const unknown = await post(UNKNOWN_ID, {
        results: [{ automation_id: 'x', status: 'passed' }],
      });
      expect(unknown.status).toBe(404);
      const anonymous = await t.http
        .post(`/internal/v1/testruns/${run.id}/results`)
        .set(HTTPS)
        .send({ results: [{ automation_id: 'x', status: 'passed' }] });
      expect(anonymous.status).toBe(401);
      await t.http
        .patch(`/internal/v1/testruns/${run.id}`)
        .set(OPERATOR)
        .send({ status: 'completed' })
        .expect(200);
      const late = await post(run.id, { results: [{ automation_id: 'x', status: 'passed' }] });
      expect(late.status).toBe(409);
      expect(late.body.details.reason).toBe('run_completed');
    });
  });

  describe('PATCH /internal/v1/testruns/{id}', () => {
    it('moves the run as the public route does, and refuses any other move', async () => {
      const run = await createRun(t, w.key, w.projectId);
      const patch = (id: string, body: object) =>
        t.http.patch(`/internal/v1/testruns/${id}`).set(OPERATOR).send(body);
      const submitted = await patch(run.id, { status: 'submitted' });
      expect(submitted.status).toBe(200);
      expect(submitted.body.status).toBe('submitted');
      const completed = await patch(run.id, { status: 'completed' });
      expect(completed.status).toBe(200);
      expect(completed.body).toEqual((await publicView(run.id)).body);
      const again = await patch(run.id, { status: 'completed' });
      expect(again.status).toBe(409);
      expect(again.body.details.reason).toBe('invalid_transition');
      expect(again.body.message).toBe('A test run cannot move from completed to completed.');
      expect((await patch(run.id, { status: 'done' })).status).toBe(400);
      expect((await patch(run.id, {})).status).toBe(400);
      expect((await patch(UNKNOWN_ID, { status: 'completed' })).status).toBe(404);
      const anonymous = await t.http
        .patch(`/internal/v1/testruns/${run.id}`)
        .set(HTTPS)
        .send({ status: 'completed' });
      expect(anonymous.status).toBe(401);
    });
  });
});
