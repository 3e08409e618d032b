import { organizationCaller } from '../../src/common/caller.js';
import { KeepReleaseSlots1795870000000 } from '../../src/database/migrations/1795870000000-KeepReleaseSlots.js';
import { Transactions } from '../../src/database/transactions.js';
import { QuarantineService } from '../../src/flakiness/quarantine.service.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ReleaseOverviews } from '../../src/release-progress/release-overviews.service.js';
import { ReleaseProgressModule } from '../../src/release-progress/release-progress.module.js';
import { ReleasesService } from '../../src/releases/releases.service.js';
import { RetentionSweeper } from '../../src/retention/retention-sweeper.js';
import { RetentionWorkerModule } from '../../src/retention/retention.module.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { useCases } from '../factories/use-cases.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'retest', 'untested'] as const;

/**
 * Each slot of the release by its latest current result across the release's runs, read
 * from the runs themselves (what progress read before `release_slot` kept it): the oracle.
 */
const FROM_RUNS = `SELECT DISTINCT ON (c.test_case_id, c.configuration)
         c.test_case_id, c.configuration, c.test_run_id, c.result_id, c.status
    FROM test_run run JOIN test_run_case c ON c.test_run_id = run.id
   WHERE run.release_id = $1
   ORDER BY c.test_case_id, c.configuration, c.result_created_at DESC, c.result_id DESC`;
const KEPT = `SELECT test_case_id, configuration, test_run_id, result_id, status
    FROM release_slot WHERE release_id = $1 ORDER BY test_case_id, configuration`;

// Issue 29: a release's progress counts `release_slot`, each slot's latest result kept as
// results are written. These cases are the ones that could make the kept rows drift from
// the runs: shards writing side by side, a run's replaced result that was the latest,
// reopening, retention deleting runs, quarantine; each ends comparing the kept rows with the
// runs' own rows.
describe('a release’s slots, kept as results are written (service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startServiceTier([
      OrganizationsModule,
      ProjectsModule,
      TestRunLifecycleModule,
      ReleaseProgressModule,
      RetentionWorkerModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  async function release() {
    const p = await the.project();
    const rel = await s.get(ReleasesService).create(p.projectId, { name: 'Release' });
    const caller = organizationCaller(p.organizationId);
    const progress = () => s.get(ReleaseOverviews).progress(caller, rel.id);
    const overview = () => s.get(ReleaseOverviews).get(caller, rel.id);
    const run = (fields: object = {}) => the.run(p, { release_id: rel.id, ...fields });
    return { project: p, id: rel.id, progress, overview, run };
  }

  /** The kept rows equal the runs' own, and progress counts them. */
  async function expectExact(r: Awaited<ReturnType<typeof release>>) {
    const fromRuns: Array<{ status: string }> = await s.db.query(FROM_RUNS, [r.id]);
    expect(await s.db.query(KEPT, [r.id])).toEqual(fromRuns);
    const counts = Object.fromEntries(
      STATUSES.map((status) => [status, fromRuns.filter((row) => row.status === status).length]),
    );
    expect((await r.progress()).results).toEqual({ total: fromRuns.length, ...counts });
    return fromRuns;
  }

  it('stays exact while shards write into several runs of the release at once', async () => {
    const r = await release();
    const runs = [
      await r.run({ name: 'a' }),
      await r.run({ name: 'b' }),
      await r.run({ name: 'c' }),
    ];
    const slots = Array.from({ length: 60 }, (_, i) => ({
      automation_id: `case.${i}`,
      configuration: i % 3 === 0 ? 'firefox' : null,
    }));
    // The cases exist first, so the shards race only on their results.
    await the.submit(
      runs[0],
      slots.map((slot) => ({ ...slot, status: 'untested' })),
    );
    for (let round = 0; round < 3; round++) {
      // Three shards into each run, each sending every slot (so each run's and the release's
      // rows are contended), with statuses that differ by run, shard and round.
      await Promise.all(
        runs.flatMap((run, k) =>
          [0, 1, 2].map((shard) =>
            the.submit(
              run,
              slots.map((slot, i) => ({
                ...slot,
                status: STATUSES[(i + k * 7 + shard * 3 + round * 5) % STATUSES.length],
              })),
            ),
          ),
        ),
      );
      await expectExact(r);
    }
  });

  it('takes the other runs’ latest when a run’s replaced result was the latest and its new one is older', async () => {
    const r = await release();
    const late = await r.run({ name: 'late' });
    const other = await r.run({ name: 'other' });
    const transactions = s.get(Transactions);
    let storeNow!: () => void;
    const go = new Promise<void>((resolve) => (storeNow = resolve));
    // A batch whose transaction starts first (its results' time) but writes last.
    const slow = transactions.begin(async (manager) => {
      await manager.query('SELECT now()');
      await go;
      await the.submit(late, [{ automation_id: 'A', status: 'failed' }]);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await the.submit(other, [{ automation_id: 'A', status: 'blocked' }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await the.submit(late, [{ automation_id: 'A', status: 'passed' }]);
    expect((await r.progress()).results).toMatchObject({ total: 1, passed: 1 });
    storeNow();
    await slow;
    // `late`'s current result is now its failure, stored before the other run's block, so the
    // block is the slot's latest.
    const [row] = await expectExact(r);
    expect(row).toMatchObject({ test_run_id: other.runId, status: 'blocked' });
  });

  it('decides two results of one millisecond by result id on the write path', async () => {
    const r = await release();
    const first = await r.run({ name: 'first' });
    const second = await r.run({ name: 'second' });
    // One transaction: both batches' results are stored at its time.
    await s.get(Transactions).begin(async () => {
      await the.submit(first, [{ automation_id: 'A', status: 'failed' }]);
      await the.submit(second, [{ automation_id: 'A', status: 'passed' }]);
    });
    const [{ moments }] = await s.db.query(
      `SELECT count(DISTINCT result_created_at)::int AS moments FROM test_run_case
        WHERE test_run_id = ANY($1::uuid[])`,
      [[first.runId, second.runId]],
    );
    expect(moments).toBe(1);
    await expectExact(r);
  });

  it('is unchanged by reopening, and takes the results written after it', async () => {
    const r = await release();
    const run = await r.run();
    const rerun = await r.run({ name: 'rerun' });
    await the.submit(run, [
      { automation_id: 'A', status: 'failed' },
      { automation_id: 'B', status: 'passed' },
    ]);
    await the.submit(rerun, [{ automation_id: 'B', status: 'failed' }]);
    await the.transition(run, 'completed');
    const before = await expectExact(r);
    await the.transition(run, 'in_progress');
    expect(await expectExact(r)).toEqual(before);
    await the.submit(run, [{ automation_id: 'B', status: 'passed' }]);
    await the.transition(run, 'completed');
    expect(await r.progress()).toMatchObject({
      results: { total: 2, passed: 1, failed: 1 },
      not_ready_because: ['runs_open', 'failed_results'],
    });
    await expectExact(r);
  });

  it('keeps the remaining runs’ latest when retention deletes runs, and nothing when all are gone', async () => {
    const r = await release();
    const keptRelease = await release();
    const old = await r.run({ name: 'old' });
    const older = await r.run({ name: 'older' });
    const recent = await r.run({ name: 'recent' });
    await the.submit(older, [
      { automation_id: 'A', status: 'blocked' },
      { automation_id: 'B', status: 'passed' },
    ]);
    await the.submit(recent, [{ automation_id: 'A', status: 'skipped' }]);
    // The old run's results are the latest of A and B, and C is only there.
    await the.submit(old, [
      { automation_id: 'A', status: 'failed' },
      { automation_id: 'B', status: 'failed' },
      { automation_id: 'C', status: 'failed', configuration: 'linux' },
    ]);
    const other = await keptRelease.run();
    await the.submit(other, [{ automation_id: 'A', status: 'passed' }]);
    await s.db.query(`UPDATE project SET retention_days = 30 WHERE id = $1`, [r.project.projectId]);
    await s.db.query(`UPDATE test_run SET created_at = $2 WHERE id = ANY($1::uuid[])`, [
      [old.runId],
      new Date(Date.now() - 40 * DAY_MS),
    ]);
    expect((await s.get(RetentionSweeper).sweep()).runs).toBe(1);
    // A is the recent run's skip again (stored after the older run's block), B the older
    // run's pass; C is gone with its only run.
    const rows = await expectExact(r);
    expect(rows.map((row) => row.status).sort()).toEqual(['passed', 'skipped']);
    expect(await r.progress()).toMatchObject({
      test_runs: { total: 2 },
      results: { total: 2, skipped: 1, passed: 1, failed: 0 },
    });
    // Another project's release is not touched.
    await expectExact(keptRelease);
    expect((await keptRelease.progress()).results).toMatchObject({ total: 1, passed: 1 });

    // Every run gone: no slot, no run, and the release says how many runs it lost.
    await s.db.query(`UPDATE test_run SET created_at = $2 WHERE id = ANY($1::uuid[])`, [
      [older.runId, recent.runId],
      new Date(Date.now() - 40 * DAY_MS),
    ]);
    expect((await s.get(RetentionSweeper).sweep()).runs).toBe(2);
    expect(await expectExact(r)).toEqual([]);
    expect(await r.progress()).toMatchObject({
      test_runs: { total: 0 },
      results: { total: 0 },
      ready: false,
      not_ready_because: ['no_runs'],
    });
    expect(await r.overview()).toMatchObject({ runs_deleted: 3 });
  });

  it('is created and filled by its migration from the runs already there', async () => {
    const r = await release();
    const other = await release();
    const first = await r.run({ name: 'first' });
    const second = await r.run({ name: 'second' });
    await the.submit(first, [
      { automation_id: 'A', status: 'failed' },
      { automation_id: 'A', status: 'passed', configuration: 'firefox' },
      { automation_id: 'B', status: 'blocked' },
    ]);
    await the.submit(second, [{ automation_id: 'A', status: 'passed' }]);
    await the.submit(await other.run(), [{ automation_id: 'C', status: 'skipped' }]);
    // A run without a release has no slots there.
    await the.submit(await the.run(r.project), [{ automation_id: 'D', status: 'failed' }]);
    const expected = [await s.db.query(FROM_RUNS, [r.id]), await s.db.query(FROM_RUNS, [other.id])];
    expect(expected.map((rows: unknown[]) => rows.length)).toEqual([3, 1]);

    const runner = s.db.createQueryRunner();
    const migration = new KeepReleaseSlots1795870000000();
    // In a transaction rolled back at the end: the table the other tests use stays.
    await runner.startTransaction();
    try {
      await migration.down(runner);
      await migration.up(runner);
      expect([await runner.query(KEPT, [r.id]), await runner.query(KEPT, [other.id])]).toEqual(
        expected,
      );
      const [{ releases }] = await runner.query(
        `SELECT count(DISTINCT release_id)::int AS releases FROM release_slot s
          WHERE s.organization_id = ANY($1::uuid[])`,
        [[r.project.organizationId, other.project.organizationId]],
      );
      expect(releases).toBe(2);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('counts a quarantined case’s failure in progress, and among the quarantined failures', async () => {
    const r = await release();
    const run = await r.run();
    await the.submit(run, [
      { automation_id: 'A', status: 'failed' },
      { automation_id: 'A', status: 'failed', configuration: 'firefox' },
      { automation_id: 'B', status: 'failed' },
      { automation_id: 'C', status: 'passed' },
    ]);
    const [{ id: quarantined }] = await s.db.query(
      `SELECT id FROM test_case WHERE project_id = $1 AND automation_id = 'A'`,
      [r.project.projectId],
    );
    await s
      .get(QuarantineService)
      .quarantine(organizationCaller(r.project.organizationId), r.project.projectId, quarantined, {
        reason: 'flaky',
      });
    expect(await r.overview()).toMatchObject({
      progress: {
        results: { total: 4, failed: 3 },
        not_ready_because: ['runs_open', 'failed_results'],
      },
      quarantined_failures: 2,
    });
    // Fixed in a later run: no longer failing, in progress nor among the quarantined.
    await the.submit(await r.run({ name: 'fix' }), [
      { automation_id: 'A', status: 'passed' },
      { automation_id: 'A', status: 'passed', configuration: 'firefox' },
    ]);
    expect(await r.overview()).toMatchObject({
      progress: { results: { total: 4, failed: 1, passed: 3 } },
      quarantined_failures: 0,
    });
    await expectExact(r);
  });
});
