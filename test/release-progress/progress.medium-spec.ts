import { organizationCaller } from '../../src/common/caller.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ReleaseOverviews } from '../../src/release-progress/release-overviews.service.js';
import { ReleaseProgressModule } from '../../src/release-progress/release-progress.module.js';
import { ReleasesService } from '../../src/releases/releases.service.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { BACKFILL } from '../../src/results/release-slots.repository.js';
import { useCases, type TierRun } from '../factories/use-cases.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

// The definitions of CONTRACT §6 "Release progress", one per test, on the real database
// without HTTP: which result is a case's current one across runs, what counts as executed,
// when `ready` holds (moved from progress.e2e-spec.ts, which keeps the route's shape).
describe('a release’s progress (service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startServiceTier([
      OrganizationsModule,
      ProjectsModule,
      TestRunLifecycleModule,
      ReleaseProgressModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  async function release() {
    const p = await the.project();
    const rel = await s.get(ReleasesService).create(p.projectId, { name: 'Release' });
    const progress = () =>
      s.get(ReleaseOverviews).progress(organizationCaller(p.organizationId), rel.id);
    const run = (fields: object = {}) => the.run(p, { release_id: rel.id, ...fields });
    const complete = (r: TierRun) => the.transition(r, 'completed');
    const reopen = (r: TierRun) => the.transition(r, 'in_progress');
    return { project: p, id: rel.id, progress, run, complete, reopen };
  }

  it('counts the result stored last across runs, even when it went into the older run', async () => {
    const r = await release();
    const older = await r.run({ name: 'older' });
    const newer = await r.run({ name: 'newer' });
    await the.submit(newer, [{ automation_id: 'A', status: 'failed' }]);
    // Stored after the newer run's result, though into the older run and with an earlier
    // executed_at: storage time decides, not the run's age nor when the test ran.
    await the.submit(older, [
      { automation_id: 'A', status: 'passed', executed_at: '2020-01-01T00:00:00Z' },
    ]);
    expect((await r.progress()).results).toEqual({
      total: 1,
      passed: 1,
      failed: 0,
      blocked: 0,
      skipped: 0,
      retest: 0,
      untested: 0,
    });

    // And the other way round: a later failure in the newer run takes over again.
    await the.submit(newer, [{ automation_id: 'A', status: 'failed' }]);
    expect(await r.progress()).toMatchObject({
      results: { total: 1, passed: 0, failed: 1 },
      pass_rate: 0,
      completion_rate: 1,
    });
  });

  it('is not ready while a current result is failed, though every run is completed', async () => {
    const r = await release();
    const run = await r.run();
    await the.submit(run, [
      { automation_id: 'A', status: 'passed' },
      { automation_id: 'B', status: 'failed' },
    ]);
    await r.complete(run);
    expect(await r.progress()).toMatchObject({
      test_runs: { total: 1, in_progress: 0, submitted: 0, completed: 1 },
      results: { total: 2, passed: 1, failed: 1 },
      pass_rate: 0.5,
      ready: false,
      not_ready_because: ['failed_results'],
    });

    // B passes in a second run: once that run completes too, the release is ready.
    const rerun = await r.run();
    await the.submit(rerun, [{ automation_id: 'B', status: 'passed' }]);
    // The rerun is still in progress; B's current result is its pass there.
    expect(await r.progress()).toMatchObject({ ready: false, not_ready_because: ['runs_open'] });
    await r.complete(rerun);
    expect(await r.progress()).toMatchObject({
      test_runs: { total: 2, completed: 2 },
      results: { total: 2, passed: 2, failed: 0 },
      pass_rate: 1,
      ready: true,
      not_ready_because: [],
    });
  });

  it('says what keeps it from ready, every reason in the contract’s order, none when ready', async () => {
    const r = await release();
    const reasons = async () => (await r.progress()).not_ready_because;
    expect(await reasons()).toEqual(['no_runs']);
    const run = await r.run();
    expect(await reasons()).toEqual(['runs_open']);
    await the.submit(run, [
      { automation_id: 'A', status: 'blocked' },
      { automation_id: 'B', status: 'failed' },
    ]);
    expect(await reasons()).toEqual(['runs_open', 'failed_results', 'blocked_results']);
    await r.complete(run);
    expect(await reasons()).toEqual(['failed_results', 'blocked_results']);
    // A reopened run is open again until it completes again.
    await r.reopen(run);
    await the.submit(run, [{ automation_id: 'B', status: 'passed' }]);
    expect(await reasons()).toEqual(['runs_open', 'blocked_results']);
    await the.submit(run, [{ automation_id: 'A', status: 'passed' }]);
    await r.complete(run);
    expect(await r.progress()).toMatchObject({ ready: true, not_ready_because: [] });
  });

  it('is not ready while a current result is blocked', async () => {
    const r = await release();
    const run = await r.run();
    await the.submit(run, [{ automation_id: 'A', status: 'blocked' }]);
    await r.complete(run);
    expect(await r.progress()).toMatchObject({
      results: { total: 1, blocked: 1 },
      pass_rate: 0,
      ready: false,
      not_ready_because: ['blocked_results'],
    });
  });

  it('counts retest as executed, and a retest does not stop the release being ready', async () => {
    const r = await release();
    const run = await r.run();
    await the.submit(run, [
      { automation_id: 'A', status: 'retest' },
      { automation_id: 'B', status: 'passed' },
      { automation_id: 'C', status: 'untested' },
    ]);
    await r.complete(run);
    // executed = A and B (not C): pass_rate 1/2, completion_rate 2/3 rounded to 4 decimals.
    expect(await r.progress()).toMatchObject({
      results: { total: 3, passed: 1, retest: 1, untested: 1 },
      pass_rate: 0.5,
      completion_rate: 0.6667,
      ready: true,
    });
  });

  it('counts a case once when an earlier untested row of another run is its older result', async () => {
    const r = await release();
    const tc = await the.testCase(r.project);
    // Pre-populated as untested in the first run, executed later in a second run.
    await r.run({ test_case_ids: [tc.id] });
    const executed = await r.run();
    await the.submit(executed, [{ test_case_id: tc.id, status: 'skipped' }]);
    expect(await r.progress()).toMatchObject({
      test_runs: { total: 2, in_progress: 2 },
      results: { total: 1, skipped: 1, untested: 0 },
      pass_rate: 0,
      completion_rate: 1,
      ready: false,
    });
  });

  it('decides between two runs that stored a slot at the same millisecond by result id', async () => {
    const r = await release();
    const first = await r.run({ name: 'first' });
    const second = await r.run({ name: 'second' });
    await the.submit(first, [{ automation_id: 'A', status: 'failed' }]);
    await the.submit(second, [{ automation_id: 'A', status: 'passed' }]);
    // Both stored at one moment (two transactions can share a millisecond): the storage time
    // ties, and the greater result id is the latest (CONTRACT §6), whichever run holds it.
    const [rows] = await s.db.query(
      `WITH slot AS (
         SELECT c.test_run_id, c.result_id FROM test_run_case c
          WHERE c.test_run_id = ANY($1::uuid[])
       ), moment AS (
         UPDATE test_result SET created_at = '2026-01-01T00:00:00Z'
          WHERE id IN (SELECT result_id FROM slot) RETURNING id
       )
       UPDATE test_run_case c SET result_created_at = '2026-01-01T00:00:00Z'
         FROM slot WHERE c.test_run_id = slot.test_run_id
       RETURNING (SELECT result_id FROM slot ORDER BY result_id DESC LIMIT 1) AS greatest, c.result_id, c.status`,
      [[first.runId, second.runId]],
    );
    const winner = (rows as Array<{ greatest: string; result_id: string; status: string }>).find(
      (row) => row.result_id === row.greatest,
    );
    // Rows changed behind the service's back: the release's slots are rebuilt from its runs,
    // as after a bulk load (release-slots.medium-spec.ts ties them on the write path).
    await s.db.query(BACKFILL, [[r.id]]);
    const expected =
      winner?.status === 'passed' ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
    expect((await r.progress()).results).toMatchObject({ total: 1, ...expected });

    // The other way round: the other row takes the greater id.
    const loser = (rows as Array<{ greatest: string; result_id: string }>).find(
      (row) => row.result_id !== row.greatest,
    );
    const greater = 'ffffffff-ffff-7fff-bfff-ffffffffffff';
    await s.db.query(
      `WITH moved AS (UPDATE test_run_case SET result_id = $2 WHERE result_id = $1 RETURNING 1)
       UPDATE test_result SET id = $2 WHERE id = $1`,
      [loser?.result_id, greater],
    );
    await s.db.query(BACKFILL, [[r.id]]);
    const flipped =
      winner?.status === 'passed' ? { passed: 0, failed: 1 } : { passed: 1, failed: 0 };
    expect((await r.progress()).results).toMatchObject({ total: 1, ...flipped });
  });
});
