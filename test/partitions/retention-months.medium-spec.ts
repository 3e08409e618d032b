import { organizationCaller } from '../../src/common/caller.js';
import { Transactions } from '../../src/database/transactions.js';
import { FlakyTestsQuery } from '../../src/flakiness/dto/flaky-test.dto.js';
import { FlakinessModule } from '../../src/flakiness/flakiness.module.js';
import { FlakyTestsService } from '../../src/flakiness/flaky-tests.service.js';
import { QuarantineService } from '../../src/flakiness/quarantine.service.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { partitionName, runMonthOf, type RunMonth } from '../../src/database/run-months.js';
import { RunPartitionsRepository } from '../../src/partitions/run-partitions.repository.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ReleaseOverviews } from '../../src/release-progress/release-overviews.service.js';
import { ReleaseProgressModule } from '../../src/release-progress/release-progress.module.js';
import { ReleasesService } from '../../src/releases/releases.service.js';
import { ResultQuery } from '../../src/results/dto/result.dto.js';
import { ResultsModule } from '../../src/results/results.module.js';
import { ResultsService } from '../../src/results/results.service.js';
import { RetentionSweeper } from '../../src/retention/retention-sweeper.js';
import { RetentionWorkerModule } from '../../src/retention/retention.module.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { useCases, type TierProject, type TierRun } from '../factories/use-cases.js';
import type { ServiceTier } from '../support/service-tier.js';
import { monthsFrom, partitionsOf, runMadeAt, startTierOnOwnDatabase } from './month-runs.js';

const DAY_MS = 24 * 60 * 60 * 1000;

// Issue 29: retention drops a month's partitions whole when every run in it is past its
// project's retention, and deletes the other expired runs one by one as before.
describe('retention dropping whole months (service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startTierOnOwnDatabase('retention_months', [
      OrganizationsModule,
      ProjectsModule,
      ResultsModule,
      TestRunLifecycleModule,
      ReleaseProgressModule,
      RetentionWorkerModule,
      FlakinessModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  const makeMonth = (month: RunMonth) =>
    s.get(Transactions).begin(() => s.get(RunPartitionsRepository).create(month));
  const partitionsOfMonth = async (month: RunMonth) =>
    [
      ...(await partitionsOf(s.db, 'test_result')),
      ...(await partitionsOf(s.db, 'test_run_case')),
    ].filter((name) => name.endsWith(month.suffix));
  const bothPartitions = (month: RunMonth) => [
    partitionName('test_result', month),
    partitionName('test_run_case', month),
  ];
  /** A completed run of `p` made `at`, with a failure and a pass (the flaky case flipping). */
  async function completedRunAt(p: TierProject, at: Date, releaseId?: string, fail = true) {
    const run = await runMadeAt(s.db, p, at, { releaseId });
    await submitAndComplete(run, fail);
    return run;
  }
  async function submitAndComplete(run: TierRun, fail = true) {
    await the.submit(run, [
      { automation_id: 'flaky', status: fail ? 'failed' : 'passed', message: 'boom' },
      { automation_id: 'steady', status: 'passed' },
    ]);
    await the.transition(run, 'completed');
  }
  const runsLeft = async (ids: string[]) => {
    const [row] = await s.db.query(
      `SELECT (SELECT count(*)::int FROM test_run WHERE id = ANY($1::uuid[])) AS runs,
              (SELECT count(*)::int FROM test_result WHERE test_run_id = ANY($1::uuid[])) AS results,
              (SELECT count(*)::int FROM test_run_case WHERE test_run_id = ANY($1::uuid[])) AS slots`,
      [ids],
    );
    return row;
  };

  it('drops a month whose runs are all expired, and keeps a month where a project keeps everything', async () => {
    const thisMonth = runMonthOf(Date.now());
    const expiredMonth = monthsFrom(thisMonth, -2);
    const sharedMonth = monthsFrom(thisMonth, -4);
    await makeMonth(expiredMonth);
    await makeMonth(sharedMonth);
    const at = (month: RunMonth, days: number) => new Date(month.start.getTime() + days * DAY_MS);

    const a = await the.project();
    const b = await the.project();
    await s.db.query(`UPDATE project SET retention_days = 30 WHERE id = $1`, [a.projectId]);
    const release = await s.get(ReleasesService).create(a.projectId, { name: 'R1' });
    const aInExpired = [
      await completedRunAt(a, at(expiredMonth, 2), release.id),
      await completedRunAt(a, at(expiredMonth, 20), release.id, false),
    ];
    const aInShared = await completedRunAt(a, at(sharedMonth, 3), release.id);
    const bInShared = await completedRunAt(b, at(sharedMonth, 4));
    const aRecent = await the.run(a, { release_id: release.id });
    await submitAndComplete(aRecent, false);
    const aLatest = await the.run(a);
    await submitAndComplete(aLatest);
    const bRecent = await the.run(b);
    await submitAndComplete(bRecent);
    const callerA = organizationCaller(a.organizationId);
    const [flaky] = await s.db.query(
      `SELECT id FROM test_case WHERE project_id = $1 AND automation_id = 'flaky'`,
      [a.projectId],
    );
    await s.get(QuarantineService).quarantine(callerA, a.projectId, flaky.id, { reason: 'flaky' });

    const flakyOfA = async () =>
      (
        await s
          .get(FlakyTestsService)
          .list(
            callerA,
            a.projectId,
            Object.assign(new FlakyTestsQuery(), { min_executions: 1, limit: 25, offset: 0 }),
          )
      ).data.map((x) => [x.automation_id, x.executions]);
    expect(await flakyOfA()).toEqual([['flaky', 5]]);

    const report = await s.get(RetentionSweeper).sweep();
    // The expired month whole, then A's run beside B's in the shared month by itself.
    expect(report).toEqual({ months: 1, runs: 3, slots: 6 });
    expect(await partitionsOfMonth(expiredMonth)).toEqual([]);
    // B keeps every run: its month stays, with B's rows.
    expect(await partitionsOfMonth(sharedMonth)).toEqual(bothPartitions(sharedMonth).sort());
    expect(await runsLeft([...aInExpired.map((r) => r.runId), aInShared.runId])).toEqual({
      runs: 0,
      results: 0,
      slots: 0,
    });
    expect(await runsLeft([bInShared.runId, bRecent.runId, aRecent.runId, aLatest.runId])).toEqual({
      runs: 4,
      results: 8,
      slots: 8,
    });
    const [{ where }] = await s.db.query(
      `SELECT array_agg(DISTINCT tableoid::regclass::text) AS where FROM test_result WHERE test_run_id = $1`,
      [bInShared.runId],
    );
    expect(where).toEqual([partitionName('test_result', sharedMonth)]);
    const bResults = await s
      .get(ResultsService)
      .list(
        organizationCaller(b.organizationId),
        bInShared.runId,
        Object.assign(new ResultQuery(), { limit: 25, offset: 0 }),
      );
    expect(bResults.data.map((r) => r.status).sort()).toEqual(['failed', 'passed']);

    // A's case stays quarantined; its release counts the runs it lost and keeps its recent run.
    const quarantine = await s.get(QuarantineService).list(callerA, a.projectId, {
      limit: 25,
      offset: 0,
    });
    expect(quarantine.data.map((e) => e.test_case_id)).toEqual([flaky.id]);
    // The flaky list counts only the runs left (the dropped month's runs forgotten too).
    expect(await flakyOfA()).toEqual([['flaky', 2]]);
    const overview = await s.get(ReleaseOverviews).get(callerA, release.id);
    expect(overview).toMatchObject({
      runs_deleted: 3,
      progress: { test_runs: { total: 1 }, results: { total: 2, passed: 2 } },
    });

    expect(await s.get(RetentionSweeper).sweep()).toEqual({ months: 0, runs: 0, slots: 0 });
    expect(await partitionsOfMonth(sharedMonth)).toHaveLength(2);
  });

  it('keeps a month while one run in it is younger than its project’s retention', async () => {
    const month = monthsFrom(runMonthOf(Date.now()), -6);
    await makeMonth(month);
    const p = await the.project();
    await s.db.query(`UPDATE project SET retention_days = 30 WHERE id = $1`, [p.projectId]);
    const run = await completedRunAt(p, new Date(month.start.getTime() + DAY_MS));
    const longer = await the.project();
    await s.db.query(`UPDATE project SET retention_days = 3650 WHERE id = $1`, [longer.projectId]);
    const kept = await completedRunAt(longer, new Date(month.start.getTime() + 2 * DAY_MS));

    expect(await s.get(RetentionSweeper).sweep()).toEqual({ months: 0, runs: 1, slots: 2 });
    expect(await partitionsOfMonth(month)).toEqual(bothPartitions(month).sort());
    expect(await runsLeft([run.runId])).toEqual({ runs: 0, results: 0, slots: 0 });
    expect(await runsLeft([kept.runId])).toEqual({ runs: 1, results: 2, slots: 2 });

    // Once the last run is past its retention too, the month goes whole.
    await s.db.query(`UPDATE project SET retention_days = 30 WHERE id = $1`, [longer.projectId]);
    expect(await s.get(RetentionSweeper).sweep()).toEqual({ months: 1, runs: 1, slots: 2 });
    expect(await partitionsOfMonth(month)).toEqual([]);
  });
});
