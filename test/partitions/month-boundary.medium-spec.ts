import { organizationCaller } from '../../src/common/caller.js';
import { FlakinessModule } from '../../src/flakiness/flakiness.module.js';
import { FlakyTestsQuery } from '../../src/flakiness/dto/flaky-test.dto.js';
import { FlakyTestsService } from '../../src/flakiness/flaky-tests.service.js';
import { CaseHistoryService } from '../../src/insights/case-history.service.js';
import { CaseHistoryQuery } from '../../src/insights/dto/case-history.dto.js';
import { InsightsModule } from '../../src/insights/insights.module.js';
import { RunComparisonService } from '../../src/insights/run-comparison.service.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { RunPartitionsModule } from '../../src/partitions/partitions.module.js';
import { partitionName, runMonthOf } from '../../src/database/run-months.js';
import { RunPartitionsRepository } from '../../src/partitions/run-partitions.repository.js';
import { Transactions } from '../../src/database/transactions.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ReleaseOverviews } from '../../src/release-progress/release-overviews.service.js';
import { ReleaseProgressModule } from '../../src/release-progress/release-progress.module.js';
import { ReleasesModule } from '../../src/releases/releases.module.js';
import { ReleasesService } from '../../src/releases/releases.service.js';
import { ResultQuery } from '../../src/results/dto/result.dto.js';
import { ResultsModule } from '../../src/results/results.module.js';
import { ResultsService } from '../../src/results/results.service.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { useCases } from '../factories/use-cases.js';
import type { ServiceTier } from '../support/service-tier.js';
import { monthBefore, partitionsOfRun, runMadeAt, startTierOnOwnDatabase } from './month-runs.js';

// Issue 29: a run's rows live in its month's partition, so the reads that span runs (a case's
// history, a release, a comparison, the flaky list) read across partitions when runs straddle
// a month's start.
describe('reads across a month’s start (service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startTierOnOwnDatabase('month_boundary', [
      OrganizationsModule,
      ProjectsModule,
      ReleasesModule,
      ResultsModule,
      TestRunLifecycleModule,
      InsightsModule,
      FlakinessModule,
      ReleaseProgressModule,
      RunPartitionsModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  it('lists, compares and counts a case’s results of a run of last month beside this month’s', async () => {
    const thisMonth = runMonthOf(Date.now());
    const lastMonth = monthBefore(thisMonth);
    // Last month is past: the worker never makes it, so the test does, as a late month.
    await s.get(Transactions).begin(() => s.get(RunPartitionsRepository).create(lastMonth));

    const p = await the.project();
    const caller = organizationCaller(p.organizationId);
    const release = await s.get(ReleasesService).create(p.projectId, { name: 'R1' });
    const justBefore = new Date(thisMonth.start.getTime() - 1500);
    const older = await runMadeAt(s.db, p, justBefore, { releaseId: release.id, name: 'Nightly' });
    await the.submit(older, [
      {
        automation_id: 'login',
        status: 'failed',
        message: 'boom',
        executed_at: justBefore.toISOString(),
      },
      { automation_id: 'cart', status: 'passed', executed_at: justBefore.toISOString() },
    ]);
    await the.transition(older, 'completed');
    const current = await the.run(p, { release_id: release.id, name: 'Nightly' });
    await the.submit(current, [
      { automation_id: 'login', status: 'passed' },
      { automation_id: 'cart', status: 'failed', message: 'broke' },
    ]);
    await the.transition(current, 'completed');

    expect(await partitionsOfRun(s.db, older.runId)).toEqual({
      test_result: [partitionName('test_result', lastMonth)],
      test_run_case: [partitionName('test_run_case', lastMonth)],
    });
    expect(await partitionsOfRun(s.db, current.runId)).toEqual({
      test_result: [partitionName('test_result', thisMonth)],
      test_run_case: [partitionName('test_run_case', thisMonth)],
    });

    const [login] = await s.db.query(
      `SELECT id FROM test_case WHERE project_id = $1 AND automation_id = 'login'`,
      [p.projectId],
    );
    const history = await s
      .get(CaseHistoryService)
      .list(caller, login.id, Object.assign(new CaseHistoryQuery(), { limit: 25, offset: 0 }));
    expect(history.pagination.total).toBe(2);
    expect(history.data.map((r) => [r.test_run_id, r.status])).toEqual([
      [current.runId, 'passed'],
      [older.runId, 'failed'],
    ]);

    const progress = await s.get(ReleaseOverviews).progress(caller, release.id);
    expect(progress.test_runs).toMatchObject({ total: 2 });
    // Each slot by its latest result: login passed now, cart failed now.
    expect(progress.results).toMatchObject({ total: 2, passed: 1, failed: 1 });

    const results = (runId: string) =>
      s
        .get(ResultsService)
        .list(caller, runId, Object.assign(new ResultQuery(), { limit: 25, offset: 0 }));
    const olderResults = await results(older.runId);
    expect(olderResults.data.map((r) => [r.status, r.test_run_id]).sort()).toEqual([
      ['failed', older.runId],
      ['passed', older.runId],
    ]);
    expect((await results(current.runId)).pagination.total).toBe(2);

    const comparison = await s
      .get(RunComparisonService)
      .compare(caller, current.runId, { baseline_run_id: older.runId });
    expect(comparison.summary).toMatchObject({
      new_failures: 1,
      fixed: 1,
      still_failing: 0,
      new_tests: 0,
      missing_tests: 0,
    });
    expect(comparison.new_failures.map((r) => r.automation_id)).toEqual(['cart']);

    const flaky = await s
      .get(FlakyTestsService)
      .list(
        caller,
        p.projectId,
        Object.assign(new FlakyTestsQuery(), { min_executions: 2, limit: 25, offset: 0 }),
      );
    expect(flaky.data.map((x) => [x.automation_id, x.executions, x.flips]).sort()).toEqual([
      ['cart', 2, 1],
      ['login', 2, 1],
    ]);
  });
});
