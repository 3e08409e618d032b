import { startApp, withKey, type TestApp } from '../support/app.js';
import { createTestCase } from '../factories/catalog.js';
import {
  createBuild,
  db,
  get,
  runWith,
  setFailure,
  UNKNOWN_ID,
  workspace,
  type Workspace,
} from './fixtures.js';

describe('results intelligence: a case’s history and a run’s failures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  describe('GET /testcases/{id}/results', () => {
    let w: Workspace;
    let runs: string[];
    let caseId: string;
    let mainBuild: string;
    beforeAll(async () => {
      w = await workspace(t);
      const main = await createBuild(t, w, {
        branch: 'main',
        commit_sha: 'ABCDEF1',
        build_number: '1042',
      });
      mainBuild = main;
      runs = [
        await runWith(t, w, { 'h.one': 'passed' }, { build_id: main }),
        await runWith(t, w, { 'h.one': 'failed' }, { name: 'Other' }),
        await runWith(
          t,
          w,
          { 'h.one': 'blocked' },
          { extra: { 'h.one': { executed_at: '2000-01-01T00:00:00.000Z', message: 'old' } } },
        ),
      ];
      caseId = w.cases.get('h.one') as string;
      await setFailure(t, runs[1], caseId, {
        signature: '0123456789abcdef',
        failure_type: 'AssertionError',
        stack_trace: 'at x.y(Z.java:1)',
      });
    });

    it('lists every result of the case, newest first, with its run and build', async () => {
      const res = await get(t, w.key, `/testcases/${caseId}/results`).expect(200);
      expect(res.body.pagination).toEqual({ total: 3, limit: 25, offset: 0, has_more: false });
      // The third run's result was executed long ago: it sorts by executed_at, so last.
      expect(res.body.data.map((r: { test_run_id: string }) => r.test_run_id)).toEqual([
        runs[1],
        runs[0],
        runs[2],
      ]);
      expect(res.body.data[0]).toEqual({
        id: expect.any(String),
        test_run_id: runs[1],
        test_case_id: caseId,
        status: 'failed',
        duration_ms: null,
        message: null,
        defects: [],
        retries: 0,
        flaky: false,
        executed_at: null,
        created_at: expect.stringMatching(/Z$/),
        failure_type: 'AssertionError',
        stack_trace: 'at x.y(Z.java:1)',
        signature: '0123456789abcdef',
        configuration: null,
        attempts: [],
        test_run_name: 'Other',
        build_id: null,
        build_name: null,
        build_number: null,
        branch: null,
        commit_sha: null,
      });
      expect(res.body.data[1]).toMatchObject({
        build_id: mainBuild,
        build_name: expect.stringMatching(/^build /),
        build_number: '1042',
        branch: 'main',
        commit_sha: 'abcdef1',
      });
      expect(res.body.data[2]).toMatchObject({
        executed_at: '2000-01-01T00:00:00.000Z',
        message: 'old',
      });
    });

    it('keeps every stored result of a run, not only the current one', async () => {
      const run = await runWith(t, w, { 'h.two': 'failed' }, { status: 'in_progress' });
      const again = await t.http
        .post(`/api/v1/testruns/${run}/results`)
        .set(withKey(w.key))
        .send({ results: [{ automation_id: 'h.two', status: 'passed' }] });
      expect(again.status).toBe(201);
      const res = await get(t, w.key, `/testcases/${w.cases.get('h.two')}/results`).expect(200);
      expect(res.body.data.map((r: { status: string }) => r.status)).toEqual(['passed', 'failed']);
    });

    it('filters by status, branch, run and creation time', async () => {
      const path = `/testcases/${caseId}/results`;
      const statuses = async (query: string) =>
        (await get(t, w.key, `${path}?${query}`).expect(200)).body.data.map(
          (r: { status: string }) => r.status,
        );
      expect(await statuses('status=failed')).toEqual(['failed']);
      expect(await statuses('branch=main')).toEqual(['passed']);
      expect(await statuses('branch=nope')).toEqual([]);
      expect(await statuses(`test_run_id=${runs[2]}`)).toEqual(['blocked']);
      const [first] = await db(t).query(
        'SELECT created_at FROM test_result WHERE test_run_id = $1',
        [runs[0]],
      );
      const after = (first.created_at as Date).toISOString();
      expect(await statuses(`created_after=${after}`)).toEqual(['failed', 'blocked']);
      expect(await statuses(`created_before=${after}`)).toEqual([]);
    });

    it('pages as every list does', async () => {
      const path = `/testcases/${caseId}/results`;
      const page = await get(t, w.key, `${path}?limit=2&offset=1`).expect(200);
      expect(page.body.data).toHaveLength(2);
      expect(page.body.pagination).toEqual({ total: 3, limit: 2, offset: 1, has_more: false });
      const past = await get(t, w.key, `${path}?offset=10`).expect(200);
      expect(past.body).toEqual({
        data: [],
        pagination: { total: 3, limit: 25, offset: 10, has_more: false },
      });
    });

    it.each([
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['status=broken', 'status'],
      ['test_run_id=nope', 'test_run_id'],
      [`test_run_id=${UNKNOWN_ID}`, 'test_run_id'],
      ['created_after=2026-01-01', 'created_after'],
      ['branch=', 'branch'],
      ['color=red', 'color'],
    ])('refuses %s: 400 naming %s', async (query, field) => {
      const res = await get(t, w.key, `/testcases/${caseId}/results?${query}`).expect(400);
      expect(res.body).toMatchObject({ error: 'invalid_request', details: { field } });
    });

    it('answers 404 for an unknown, malformed or foreign case, and a foreign run is a 400', async () => {
      await get(t, w.key, `/testcases/${UNKNOWN_ID}/results`).expect(404);
      await get(t, w.key, '/testcases/not-a-uuid/results').expect(404);
      const other = await workspace(t);
      const foreignRun = await runWith(t, other, { 'x.one': 'passed' });
      await get(t, other.key, `/testcases/${caseId}/results`).expect(404);
      const res = await get(t, w.key, `/testcases/${caseId}/results?test_run_id=${foreignRun}`);
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe('test_run_id');
    });

    it('lists nothing for a case without results', async () => {
      const fresh = await createTestCase(t, w.projectId);
      const res = await get(t, w.key, `/testcases/${fresh.id}/results`).expect(200);
      expect(res.body.pagination.total).toBe(0);
    });

    it('needs results:read', async () => {
      const reader = await workspace(t, ['testruns:read']);
      const res = await get(t, reader.key, `/testcases/${caseId}/results`).expect(403);
      expect(res.body.details.required_scopes).toEqual(['results:read']);
    });
  });

  describe('GET /testruns/{id}/failures', () => {
    let w: Workspace;
    let run: string;
    beforeAll(async () => {
      w = await workspace(t);
      const results: Record<string, string> = { 'f.ok': 'passed', 'f.skip': 'skipped' };
      for (let i = 0; i < 23; i++) results[`f.a${String(i).padStart(2, '0')}`] = 'failed';
      for (let i = 0; i < 2; i++) results[`f.b${i}`] = 'blocked';
      results['f.c0'] = 'failed';
      run = await runWith(t, w, results, {
        extra: { 'f.a00': { message: 'first A' }, 'f.b0': { message: 'first B' } },
      });
      for (const [automationId, caseId] of w.cases) {
        const signature = automationId.startsWith('f.a')
          ? 'aaaaaaaaaaaaaaaa'
          : automationId.startsWith('f.b')
            ? 'bbbbbbbbbbbbbbbb'
            : null;
        if (signature) await setFailure(t, run, caseId, { signature, failure_type: 'Boom' });
        // A result stored before signatures were computed has none.
        else if (automationId === 'f.c0') await setFailure(t, run, caseId, { signature: null });
      }
    });

    it('groups failed and blocked current results by signature, largest first', async () => {
      const res = await get(t, w.key, `/testruns/${run}/failures`).expect(200);
      expect(res.body.pagination).toEqual({ total: 3, limit: 25, offset: 0, has_more: false });
      const [a, b, none] = res.body.data;
      expect(a).toEqual({
        signature: 'aaaaaaaaaaaaaaaa',
        failure_type: 'Boom',
        message: 'first A',
        count: 23,
        test_case_ids: expect.any(Array),
      });
      expect(a.test_case_ids).toHaveLength(20);
      expect(a.test_case_ids[0]).toBe(w.cases.get('f.a00'));
      expect(b).toMatchObject({ signature: 'bbbbbbbbbbbbbbbb', count: 2, message: 'first B' });
      expect(none).toEqual({
        signature: null,
        failure_type: null,
        message: null,
        count: 1,
        test_case_ids: [w.cases.get('f.c0')],
      });
    });

    it('pages the groups', async () => {
      const res = await get(t, w.key, `/testruns/${run}/failures?limit=1&offset=1`).expect(200);
      expect(res.body.data.map((g: { signature: string }) => g.signature)).toEqual([
        'bbbbbbbbbbbbbbbb',
      ]);
      expect(res.body.pagination).toEqual({ total: 3, limit: 1, offset: 1, has_more: true });
      const past = await get(t, w.key, `/testruns/${run}/failures?offset=5`).expect(200);
      expect(past.body.pagination.total).toBe(3);
      await get(t, w.key, `/testruns/${run}/failures?limit=101`).expect(400);
    });

    it('counts only current results', async () => {
      const r = await runWith(t, w, { 'f.a00': 'failed' }, { status: 'in_progress' });
      await t.http
        .post(`/api/v1/testruns/${r}/results`)
        .set(withKey(w.key))
        .send({ results: [{ automation_id: 'f.a00', status: 'passed' }] })
        .expect(201);
      const res = await get(t, w.key, `/testruns/${r}/failures`).expect(200);
      expect(res.body.data).toEqual([]);
    });

    it('answers 404 for an unknown or foreign run, 403 without results:read', async () => {
      await get(t, w.key, `/testruns/${UNKNOWN_ID}/failures`).expect(404);
      const other = await workspace(t);
      await get(t, other.key, `/testruns/${run}/failures`).expect(404);
      const reader = await workspace(t, ['testruns:read']);
      await get(t, reader.key, `/testruns/${run}/failures`).expect(403);
    });
  });
});
