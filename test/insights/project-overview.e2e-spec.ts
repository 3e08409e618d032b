import {
  createBuild,
  INSIGHT_SCOPES,
  runWith,
  UNKNOWN_ID,
  workspace,
  type Workspace,
} from './fixtures.js';
import { submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

/**
 * The project overview's internal routes (issue 31): the latest run of each name with its kept
 * verdict, the series a trend can follow, a series' trend, and the causes of failure that
 * recur across the latest runs; each within the project's organization.
 */
describe('project overview (internal API)', () => {
  let t: TestApp;
  let w: Workspace;
  /** Another organization's project with runs of the same name on the same branch. */
  let other: Workspace;
  /** "Nightly" on main, oldest first; then on feature/x; then "Smoke", in progress. */
  const main: string[] = [];
  let feature: string;
  let smoke: string;

  beforeAll(async () => {
    t = await startApp();
    w = await workspace(t, INSIGHT_SCOPES);
    other = await workspace(t, INSIGHT_SCOPES);
    const onMain = () => createBuild(t, w, { branch: 'main', build_number: '7' });
    // Pass rates 2/3, 1/3, 2/4 (skipped is executed); failures 1, 2, 1; flaky 0, 0, 1.
    main.push(
      await runWith(
        t,
        w,
        { 'shop.a': 'passed', 'shop.b': 'failed', 'shop.c': 'passed' },
        { build_id: await onMain(), extra: { 'shop.b': { message: 'timeout after 30 s' } } },
      ),
    );
    main.push(
      await runWith(
        t,
        w,
        { 'shop.a': 'passed', 'shop.b': 'failed', 'shop.c': 'failed' },
        {
          build_id: await onMain(),
          extra: {
            'shop.b': { message: 'timeout after 31 s' },
            'shop.c': { message: 'card declined (code 4021)' },
          },
        },
      ),
    );
    // The third: c fails as in the second, then passes on a rerun, which replaces it; d is new.
    const third = await runWith(
      t,
      w,
      { 'shop.a': 'passed', 'shop.b': 'failed', 'shop.c': 'failed', 'shop.d': 'skipped' },
      {
        build_id: await onMain(),
        status: 'in_progress',
        extra: {
          'shop.a': { retries: 2 },
          'shop.b': { message: 'timeout after 32 s' },
          'shop.c': { message: 'card declined (code 4022)' },
        },
      },
    );
    const rerun = await submitResults(t, w.key, third, [
      { automation_id: 'shop.c', status: 'passed' },
    ]);
    expect(rerun.status).toBe(201);
    await t.http
      .patch(`/api/v1/testruns/${third}`)
      .set(withKey(w.key))
      .send({ status: 'submitted' })
      .expect(200);
    main.push(third);
    feature = await runWith(
      t,
      w,
      { 'shop.a': 'failed' },
      {
        build_id: await createBuild(t, w, { branch: 'feature/x' }),
        extra: { 'shop.a': { message: 'boom' } },
      },
    );
    smoke = await runWith(t, w, { 'shop.a': 'passed' }, { name: 'Smoke', status: 'in_progress' });
    // The other organization: the same name, branch and failure, in runs of its own.
    for (let i = 0; i < 3; i++) {
      await runWith(
        t,
        other,
        { 'shop.b': 'failed', 'shop.z': 'passed' },
        {
          build_id: await createBuild(t, other, { branch: 'main' }),
          extra: { 'shop.b': { message: `timeout after ${40 + i} s` } },
        },
      );
    }
  });
  afterAll(() => t.close());

  const internal = (projectId: string, path = '') =>
    t.http.get(`/internal/v1/projects/${projectId}/overview${path}`).set(OPERATOR);

  describe('GET /internal/v1/projects/{id}/overview', () => {
    it('lists the latest run of each name, latest first, with its verdict, and the series', async () => {
      const res = await internal(w.projectId).expect(200);
      expect(res.body.project_id).toBe(w.projectId);
      expect(res.body.latest_runs.map((run: { id: string }) => run.id)).toEqual([smoke, feature]);
      const [smokeRun, nightly] = res.body.latest_runs;
      expect(smokeRun).toMatchObject({
        name: 'Smoke',
        status: 'in_progress',
        gate: null,
        build: null,
        duration_ms: null,
        pass_rate: 1,
      });
      expect(nightly).toMatchObject({
        name: 'Nightly',
        status: 'completed',
        counts: { total: 1, passed: 0, failed: 1 },
        pass_rate: 0,
        gate: { passed: false },
        build: { branch: 'feature/x' },
      });
      expect(nightly.duration_ms).toBeGreaterThanOrEqual(0);
      expect(
        res.body.series.map((s: { name: string; branch: string | null; runs: number }) => [
          s.name,
          s.branch,
          s.runs,
        ]),
      ).toEqual([
        ['Smoke', null, 1],
        ['Nightly', 'feature/x', 1],
        ['Nightly', 'main', 3],
      ]);
    });

    it('answers an empty overview for a project without runs, and 404 for no project', async () => {
      const empty = await workspace(t, INSIGHT_SCOPES);
      const res = await internal(empty.projectId).expect(200);
      expect(res.body).toEqual({ project_id: empty.projectId, latest_runs: [], series: [] });
      const missing = await internal(UNKNOWN_ID);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('not_found');
    });

    it('is the operator’s: an API key does not reach it', async () => {
      const res = await t.http
        .get(`/internal/v1/projects/${w.projectId}/overview`)
        .set(withKey(w.key));
      expect(res.status).not.toBe(200);
    });
  });

  describe('GET …/overview/trend', () => {
    it('gives a name and branch’s handed-in runs, oldest first, with their numbers', async () => {
      const res = await internal(w.projectId, '/trend?name=Nightly&branch=main').expect(200);
      expect(res.body.name).toBe('Nightly');
      expect(res.body.branch).toBe('main');
      const runs = res.body.runs as Array<{
        id: string;
        pass_rate: number;
        counts: { failed: number; blocked: number; flaky: number; skipped: number };
        duration_ms: number;
        status: string;
        build: { build_number: string };
      }>;
      expect(runs.map((run) => run.id)).toEqual(main);
      expect(runs.map((run) => run.pass_rate)).toEqual([0.6667, 0.3333, 0.5]);
      expect(runs.map((run) => run.counts.failed + run.counts.blocked)).toEqual([1, 2, 1]);
      expect(runs.map((run) => run.counts.flaky)).toEqual([0, 0, 1]);
      expect(runs.map((run) => run.counts.skipped)).toEqual([0, 0, 1]);
      expect(runs.map((run) => run.status)).toEqual(['completed', 'completed', 'submitted']);
      expect(runs.map((run) => run.build.build_number)).toEqual(['7', '7', '7']);
      for (const run of runs) expect(run.duration_ms).toBeGreaterThanOrEqual(0);
    });

    it('takes every branch without one, the latest `runs`, and never a run in progress', async () => {
      const all = await internal(w.projectId, '/trend?name=Nightly').expect(200);
      expect(all.body.branch).toBeNull();
      expect(all.body.runs.map((run: { id: string }) => run.id)).toEqual([...main, feature]);
      const two = await internal(w.projectId, '/trend?name=Nightly&runs=2').expect(200);
      expect(two.body.runs.map((run: { id: string }) => run.id)).toEqual([main[2], feature]);
      const smokeTrend = await internal(w.projectId, '/trend?name=Smoke').expect(200);
      expect(smokeTrend.body.runs).toEqual([]);
    });

    it('refuses a query without a name or with runs out of range', async () => {
      const noName = await internal(w.projectId, '/trend');
      expect(noName.status).toBe(400);
      expect(noName.body.details.field).toBe('name');
      const tooMany = await internal(w.projectId, '/trend?name=Nightly&runs=101');
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.details.field).toBe('runs');
    });
  });

  describe('GET …/overview/recurring-failures', () => {
    it('groups the latest runs’ failing current results by cause, seen in two runs or more', async () => {
      const res = await internal(
        w.projectId,
        '/recurring-failures?name=Nightly&branch=main',
      ).expect(200);
      expect(res.body.runs_read).toBe(3);
      expect(res.body.latest_run_id).toBe(main[2]);
      // The timeouts, in all three; the declined card failed in two runs, but the third's was
      // replaced by a rerun that passed, so it is not a failure of that run.
      expect(res.body.data).toEqual([
        {
          signature: expect.stringMatching(/^[0-9a-f]{16}$/),
          failure_type: null,
          message: 'timeout after 32 s',
          runs: 3,
          failures: 3,
          cases: 1,
          in_latest_run: true,
          last_run_id: main[2],
        },
      ]);
    });

    it('reads every name and branch without a filter, and no other organization’s runs', async () => {
      const res = await internal(w.projectId, '/recurring-failures').expect(200);
      expect(res.body.runs_read).toBe(4);
      expect(res.body.latest_run_id).toBe(feature);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({ runs: 3, failures: 3, in_latest_run: false });
      const theirs = await internal(other.projectId, '/recurring-failures').expect(200);
      expect(theirs.body.runs_read).toBe(3);
      expect(theirs.body.data).toHaveLength(1);
      expect(theirs.body.data[0].message).toBe('timeout after 42 s');
      expect(theirs.body.data[0].signature).toBe(res.body.data[0].signature);
      const none = await internal(w.projectId, '/recurring-failures?runs=2&name=Nightly');
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ runs_read: 2, data: [] });
    });
  });

  it('shows no other organization’s runs in the latest runs or the trend', async () => {
    const theirs = await internal(other.projectId).expect(200);
    expect(theirs.body.latest_runs).toHaveLength(1);
    const mine = await internal(w.projectId, '/trend?name=Nightly&branch=main').expect(200);
    const ours = await internal(other.projectId, '/trend?name=Nightly&branch=main').expect(200);
    expect(mine.body.runs).toHaveLength(3);
    expect(ours.body.runs).toHaveLength(3);
    const mineIds = new Set(mine.body.runs.map((run: { id: string }) => run.id));
    for (const run of ours.body.runs) expect(mineIds.has(run.id)).toBe(false);
  });
});
