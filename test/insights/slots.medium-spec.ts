import { organizationCaller, type Caller } from '../../src/common/caller.js';
import { FlakinessModule } from '../../src/flakiness/flakiness.module.js';
import { FlakyTestsQuery } from '../../src/flakiness/dto/flaky-test.dto.js';
import { FlakyTestsService } from '../../src/flakiness/flaky-tests.service.js';
import { CaseHistoryService } from '../../src/insights/case-history.service.js';
import { CaseHistoryQuery } from '../../src/insights/dto/case-history.dto.js';
import { InsightsModule } from '../../src/insights/insights.module.js';
import { QualityGateService } from '../../src/insights/quality-gate.service.js';
import { RunComparisonService } from '../../src/insights/run-comparison.service.js';
import { RunFailuresService } from '../../src/insights/run-failures.service.js';
import { PaginationQuery } from '../../src/common/pagination/pagination.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { OrganizationsService } from '../../src/organizations/organizations.service.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ProjectsService } from '../../src/projects/projects.service.js';
import { ReleaseOverviews } from '../../src/release-progress/release-overviews.service.js';
import { ReleaseProgressModule } from '../../src/release-progress/release-progress.module.js';
import { ReleasesModule } from '../../src/releases/releases.module.js';
import { ReleasesService } from '../../src/releases/releases.service.js';
import type { ResultItem } from '../../src/results/result-items.js';
import { resultItem } from '../factories/use-cases.js';
import { CreateTestRun } from '../../src/test-run-lifecycle/create-test-run.usecase.js';
import { SubmitResults } from '../../src/test-run-lifecycle/submit-results.usecase.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { TransitionTestRun } from '../../src/test-run-lifecycle/transition-test-run.usecase.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

/**
 * CONTRACT §13 on the reads: the comparison, the gate, release progress, a case's history and
 * the flaky list work per slot (test case, configuration), so a failure in one configuration
 * is never hidden by a pass in another.
 */
describe('reads per slot (service tier)', () => {
  let s: ServiceTier;
  beforeAll(async () => {
    s = await startServiceTier([
      OrganizationsModule,
      ProjectsModule,
      ReleasesModule,
      TestRunLifecycleModule,
      InsightsModule,
      FlakinessModule,
      ReleaseProgressModule,
    ]);
  });
  afterAll(() => s.close());

  let counter = 0;
  interface Project {
    caller: Caller;
    projectId: string;
  }
  async function project(): Promise<Project> {
    const org = await s
      .get(OrganizationsService)
      .create({ name: `Reads ${++counter}`, plan: 'pro' });
    const created = await s
      .get(ProjectsService)
      .create(org.id, { name: 'Web', key: `READ${counter}` });
    return { caller: organizationCaller(org.id), projectId: created.id };
  }
  const item = (
    automationId: string,
    status: ResultItem['status'],
    configuration: string | null,
  ): ResultItem =>
    resultItem(automationId, status, {
      configuration,
      message: status === 'failed' ? `${automationId} failed on ${configuration}` : null,
    });
  /** A completed run of `items`, in `releaseId` when given. */
  async function completedRun(p: Project, items: ResultItem[], releaseId?: string) {
    const run = await s.get(CreateTestRun).execute({
      caller: p.caller,
      source: 'api',
      run: { project_id: p.projectId, name: 'Nightly', release_id: releaseId },
    });
    await s
      .get(SubmitResults)
      .execute({ caller: p.caller, testRunId: run.id, complete: false, items });
    await s
      .get(TransitionTestRun)
      .execute({ caller: p.caller, testRunId: run.id, status: 'completed' });
    return run.id;
  }

  it('fails the gate and lists a new failure when one matrix leg fails and the other passes', async () => {
    const p = await project();
    await completedRun(p, [
      item('login', 'passed', 'chromium'),
      item('login', 'passed', 'firefox'),
    ]);
    const runId = await completedRun(p, [
      item('login', 'passed', 'chromium'),
      item('login', 'failed', 'firefox'),
    ]);
    const comparison = await s.get(RunComparisonService).compare(p.caller, runId, {});
    expect(comparison.summary).toMatchObject({ new_failures: 1, still_failing: 0, new_tests: 0 });
    expect(comparison.new_failures).toEqual([
      expect.objectContaining({
        automation_id: 'login',
        configuration: 'firefox',
        status: 'failed',
        baseline_status: 'passed',
      }),
    ]);
    const gate = await s.get(QualityGateService).gate(p.caller, runId);
    expect(gate.passed).toBe(false);
    expect(gate.rules.find((rule) => rule.name === 'no_new_failures')?.passed).toBe(false);
  });

  it('groups failures over slots: a case failing in two configurations counts twice, is listed once', async () => {
    const p = await project();
    const runId = await completedRun(p, [
      resultItem('login', 'failed', { configuration: 'firefox', message: 'boom' }),
      resultItem('login', 'failed', { configuration: 'webkit', message: 'boom' }),
      resultItem('cart', 'failed', { configuration: 'firefox', message: 'boom' }),
    ]);
    const page = await s
      .get(RunFailuresService)
      .list(p.caller, runId, Object.assign(new PaginationQuery(), { limit: 25, offset: 0 }));
    expect(page.data).toHaveLength(1);
    expect(page.data[0].count).toBe(3);
    expect(page.data[0].test_case_ids).toHaveLength(2);
    expect(new Set(page.data[0].test_case_ids).size).toBe(2);
  });

  it('matches slots by configuration: a configuration new to the baseline is a new test, a lost one is missing', async () => {
    const p = await project();
    await completedRun(p, [item('a', 'passed', 'linux'), item('a', 'passed', 'mac')]);
    const runId = await completedRun(p, [
      item('a', 'passed', 'linux'),
      item('a', 'passed', 'windows'),
    ]);
    const comparison = await s.get(RunComparisonService).compare(p.caller, runId, {});
    expect(comparison.summary).toMatchObject({ new_tests: 1, missing_tests: 1, new_failures: 0 });
  });

  it('keeps a failure of one configuration in release progress when a later run passes another', async () => {
    const p = await project();
    const release = await s
      .get(ReleasesService)
      .create(p.projectId, { name: 'R1', version: '1.0' });
    await completedRun(p, [item('checkout', 'failed', 'firefox')], release.id);
    await completedRun(p, [item('checkout', 'passed', 'chromium')], release.id);
    const progress = await s.get(ReleaseOverviews).progress(p.caller, release.id);
    expect(progress.results).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(progress.ready).toBe(false);
  });

  it('lists a case’s history in every configuration, filtered by one or by none', async () => {
    const p = await project();
    await completedRun(p, [
      item('h', 'passed', 'chromium'),
      item('h', 'failed', 'firefox'),
      item('h', 'passed', null),
    ]);
    await completedRun(p, [item('h', 'passed', 'firefox')]);
    const [{ id: caseId }] = await s.db.query<Array<{ id: string }>>(
      `SELECT id FROM test_case WHERE project_id = $1 AND automation_id = 'h'`,
      [p.projectId],
    );
    const history = (query: Partial<CaseHistoryQuery>) =>
      s
        .get(CaseHistoryService)
        .list(p.caller, caseId, Object.assign(new CaseHistoryQuery(), query));
    const all = await history({});
    expect(all.pagination.total).toBe(4);
    expect(all.data.map((r) => r.configuration).sort()).toEqual(
      ['chromium', 'firefox', 'firefox', null].sort(),
    );
    const firefox = await history({ configuration: 'firefox' });
    expect(firefox.data.map((r) => r.status)).toEqual(['passed', 'failed']);
    const none = await history({ configuration: '' });
    expect(none.data.map((r) => r.configuration)).toEqual([null]);
  });

  it('computes the flaky list per slot: flips in one configuration do not mix with another’s passes', async () => {
    const p = await project();
    for (let i = 0; i < 6; i++) {
      await completedRun(p, [
        item('f', i % 2 === 0 ? 'failed' : 'passed', 'firefox'),
        item('f', 'passed', 'chromium'),
      ]);
    }
    const flaky = (query: Partial<FlakyTestsQuery>) =>
      s
        .get(FlakyTestsService)
        .list(p.caller, p.projectId, Object.assign(new FlakyTestsQuery(), query));
    const all = await flaky({});
    expect(all.data.map((x) => [x.automation_id, x.configuration, x.executions, x.flips])).toEqual([
      ['f', 'firefox', 6, 5],
    ]);
    expect((await flaky({ configuration: 'chromium' })).data).toEqual([]);
    expect((await flaky({ configuration: 'firefox' })).data).toHaveLength(1);
  });
});
