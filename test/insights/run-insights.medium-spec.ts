import { BuildsModule } from '../../src/builds/builds.module.js';
import { BuildsService } from '../../src/builds/builds.service.js';
import { organizationCaller } from '../../src/common/caller.js';
import { ComparisonQuery } from '../../src/insights/dto/comparison.dto.js';
import { InsightsModule } from '../../src/insights/insights.module.js';
import { ProjectGateSettingsService } from '../../src/insights/project-gate-settings.service.js';
import { QualityGateService } from '../../src/insights/quality-gate.service.js';
import { RunComparisonService } from '../../src/insights/run-comparison.service.js';
import { RunVerdicts } from '../../src/insights/run-verdicts/run-verdicts.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { TestRunsService } from '../../src/testruns/testruns.service.js';
import { useCases, type TierProject, type TierRun } from '../factories/use-cases.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const NOT_REQUIRED = {
  name: 'no_missing_tests',
  passed: true,
  detail: expect.stringMatching(/not required/i),
};

/** A project, and its test case ids by automation id, as results created them. */
interface Workspace extends TierProject {
  cases: Map<string, string>;
}

interface RunSpec {
  name?: string;
  build_id?: string;
  /** The run's status after its results (default `completed`). */
  status?: 'in_progress' | 'submitted' | 'completed';
  /** Per result: `message` or `retries`. */
  extra?: Record<string, object>;
}

// What results say (CONTRACT §12) over seeded runs, on the real database without HTTP: the
// comparison's default baseline and its bounds, the gate's rules, the verdict the run's events
// carry (moved from comparison.e2e-spec.ts and gate.e2e-spec.ts, which keep the routes' shapes,
// refusals and scopes).
describe('results intelligence (service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startServiceTier([
      OrganizationsModule,
      ProjectsModule,
      BuildsModule,
      TestRunLifecycleModule,
      InsightsModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  const workspace = async (): Promise<Workspace> => ({
    ...(await the.project()),
    cases: new Map(),
  });

  async function createBuild(w: Workspace, branch: string): Promise<string> {
    const build = await s
      .get(BuildsService)
      .create(w.organizationId, { name: 'build', project_id: w.projectId, branch }, 'api');
    return (build.body as { id: string }).id;
  }

  /** A run with one result per automation id (`{'a.one': 'passed'}`), then moved to `status`. */
  async function runWith(
    w: Workspace,
    results: Record<string, string>,
    spec: RunSpec = {},
  ): Promise<TierRun> {
    const run = await the.run(w, {
      name: spec.name ?? 'Nightly',
      ...(spec.build_id ? { build_id: spec.build_id } : {}),
    });
    const items = Object.entries(results).map(([automation_id, status]) => ({
      automation_id,
      status,
      ...spec.extra?.[automation_id],
    }));
    if (items.length > 0) {
      // Named before the parser takes the items over.
      const names = items.map((item) => item.automation_id);
      const answer = await the.submit(run, items);
      names.forEach((name, i) => w.cases.set(name, answer.data[i].test_case_id));
    }
    const status = spec.status ?? 'completed';
    if (status !== 'in_progress') await the.transition(run, status);
    return run;
  }

  const compare = (r: TierRun) =>
    s
      .get(RunComparisonService)
      .compare(organizationCaller(r.organizationId), r.runId, new ComparisonQuery());
  const gate = (r: TierRun) =>
    s.get(QualityGateService).gate(organizationCaller(r.organizationId), r.runId);
  const rule = (body: { rules: Array<{ name: string }> }, name: string) =>
    body.rules.find((r) => r.name === name);
  const setGate = (
    w: Workspace,
    dto: { gate_min_pass_rate?: number | null; gate_forbid_missing_tests?: boolean },
  ) => s.get(ProjectGateSettingsService).update(w.projectId, dto);
  const quarantine = (w: Workspace, caseId: string, expiresAt: Date | null = null) =>
    s.db.query(
      `INSERT INTO quarantine_entry (test_case_id, project_id, organization_id, reason, expires_at)
       VALUES ($1, $2, $3, 'flaky', $4)`,
      [caseId, w.projectId, w.organizationId, expiresAt],
    );

  describe('the comparison’s default baseline', () => {
    let w: Workspace;
    const runs: Record<string, TierRun> = {};
    beforeAll(async () => {
      w = await workspace();
      const main1 = await createBuild(w, 'main');
      const main2 = await createBuild(w, 'main');
      const feature = await createBuild(w, 'feature');
      const one = { 'b.x': 'failed' };
      runs.oldMain = await runWith(w, one, { build_id: main1 });
      runs.submittedMain = await runWith(w, one, { build_id: main1, status: 'submitted' });
      runs.noBuild = await runWith(w, one);
      runs.feature = await runWith(w, one, { build_id: feature });
      runs.otherName = await runWith(w, one, { build_id: main1, name: 'Smoke' });
      runs.openMain = await runWith(w, one, { build_id: main1, status: 'in_progress' });
      runs.current = await runWith(w, one, { build_id: main2, status: 'in_progress' });
      runs.currentNoBuild = await runWith(w, one, { status: 'in_progress' });
      runs.laterMain = await runWith(w, one, { build_id: main1 });
      runs.lonely = await runWith(w, { 'b.x': 'failed', 'b.y': 'passed' }, { name: 'Lonely' });
    });

    const baselineOf = async (run: TierRun) => (await compare(run)).baseline_run_id;

    it('is the latest earlier submitted or completed run of the same name and branch', async () => {
      expect(await baselineOf(runs.current)).toBe(runs.submittedMain.runId);
      expect(await baselineOf(runs.submittedMain)).toBe(runs.oldMain.runId);
      expect(await baselineOf(runs.oldMain)).toBeNull();
    });

    it('matches a run without a build with one without a build', async () => {
      expect(await baselineOf(runs.currentNoBuild)).toBe(runs.noBuild.runId);
      expect(await baselineOf(runs.feature)).toBeNull();
    });

    it('is null when there is none, and then every failure is new', async () => {
      const answer = await compare(runs.lonely);
      expect(answer).toMatchObject({
        baseline_run_id: null,
        summary: { new_failures: 1, still_failing: 0, fixed: 0, new_tests: 1, missing_tests: 0 },
        still_failing: [],
        fixed: [],
      });
      expect(answer.new_failures.map((i) => i.test_case_id)).toEqual([w.cases.get('b.x')]);
    });
  });

  it('lists at most 100 cases per category by automation id, and counts them all', async () => {
    const w = await workspace();
    const results: Record<string, string> = {};
    for (let i = 104; i >= 0; i--) results[`m.${String(i).padStart(3, '0')}`] = 'failed';
    const answer = await compare(await runWith(w, results));
    expect(answer.summary.new_failures).toBe(105);
    expect(answer.new_failures).toHaveLength(100);
    const automationIds = answer.new_failures.map((i) => i.automation_id);
    expect(automationIds).toEqual([...automationIds].sort());
    expect(automationIds[0]).toBe('m.000');
  });

  describe('the quality gate', () => {
    it('fails on a new failure unless its case is in an active quarantine', async () => {
      const w = await workspace();
      await runWith(w, { 'q.a': 'passed', 'q.b': 'passed' });
      const run = await runWith(w, { 'q.a': 'failed', 'q.b': 'failed' });
      const before = await gate(run);
      expect(before.passed).toBe(false);
      expect(rule(before, 'no_new_failures')).toEqual({
        name: 'no_new_failures',
        passed: false,
        detail: '2 new failures outside quarantine.',
      });
      await quarantine(w, w.cases.get('q.a') as string);
      await quarantine(w, w.cases.get('q.b') as string, new Date(Date.now() - 60_000));
      expect(rule(await gate(run), 'no_new_failures')).toMatchObject({ passed: false });
      await s.db.query(
        `UPDATE quarantine_entry SET expires_at = now() + interval '1 day' WHERE test_case_id = $1`,
        [w.cases.get('q.b')],
      );
      expect((await gate(run)).passed).toBe(true);
    });

    it('applies the project’s minimum pass rate to passed / executed', async () => {
      const w = await workspace();
      // 3 passed of 4 executed (the untested one does not count): 75 %.
      const run = await runWith(w, {
        'p.a': 'passed',
        'p.b': 'passed',
        'p.c': 'passed',
        'p.d': 'skipped',
        'p.e': 'untested',
      });
      await setGate(w, { gate_min_pass_rate: 0.8 });
      const below = await gate(run);
      expect(below.passed).toBe(false);
      expect(rule(below, 'min_pass_rate')).toEqual({
        name: 'min_pass_rate',
        passed: false,
        detail: 'Pass rate 75% (3 of 4 executed) is below the minimum of 80%.',
      });
      await setGate(w, { gate_min_pass_rate: 0.75 });
      expect(rule(await gate(run), 'min_pass_rate')).toMatchObject({ passed: true });
      const empty = await runWith(w, { 'p.e': 'untested' }, { name: 'Empty' });
      expect(rule(await gate(empty), 'min_pass_rate')).toMatchObject({ passed: false });
      await setGate(w, { gate_min_pass_rate: null });
      expect(rule(await gate(run), 'min_pass_rate')).toMatchObject({ passed: true });
    });

    it('fails on missing tests only when the project forbids them', async () => {
      const w = await workspace();
      await runWith(w, { 'm.a': 'passed', 'm.b': 'passed' });
      const run = await runWith(w, { 'm.a': 'passed' });
      expect(rule(await gate(run), 'no_missing_tests')).toEqual(NOT_REQUIRED);
      await setGate(w, { gate_forbid_missing_tests: true });
      const answer = await gate(run);
      expect(answer.passed).toBe(false);
      expect(rule(answer, 'no_missing_tests')).toEqual({
        name: 'no_missing_tests',
        passed: false,
        detail: '1 test of the baseline is missing.',
      });
    });
  });

  describe('RunVerdicts', () => {
    it('gives the comparison summary and the gate for the run’s events', async () => {
      const w = await workspace();
      const baseline = await runWith(w, { 'v.a': 'passed', 'v.b': 'failed' });
      const run = await runWith(w, { 'v.a': 'failed', 'v.c': 'passed' });
      const verdict = await s.get(RunVerdicts).of(w.organizationId, run.runId);
      expect(verdict).toEqual({
        comparison: {
          baseline_run_id: baseline.runId,
          summary: {
            new_failures: 1,
            still_failing: 0,
            fixed: 0,
            new_tests: 1,
            missing_tests: 1,
            flaky: 0,
          },
        },
        gate: { passed: false, evaluated_at: ISO },
      });
      const first = await s.get(RunVerdicts).of(w.organizationId, baseline.runId);
      expect(first).toMatchObject({
        comparison: { baseline_run_id: null },
        gate: { passed: false },
      });
      const other = await workspace();
      await expect(s.get(RunVerdicts).of(other.organizationId, run.runId)).rejects.toMatchObject({
        status: 404,
      });
    });

    it('is in the payloads of testrun.submitted.v1 and testrun.completed.v1, as of each move', async () => {
      const w = await workspace();
      const baseline = await runWith(w, { 'e.a': 'passed', 'e.b': 'passed' });
      const run = await runWith(w, { 'e.a': 'failed', 'e.b': 'passed' }, { status: 'submitted' });
      // Fixed between submission and completion: the completed event says so.
      await the.submit(run, [{ automation_id: 'e.a', status: 'passed' }], true);
      const events = await s.db.query<Array<{ type: string; data: Record<string, unknown> }>>(
        `SELECT type, data FROM domain_event
          WHERE organization_id = $1 AND type IN ('testrun.submitted.v1', 'testrun.completed.v1')
            AND data->>'id' = $2
          ORDER BY created_at, id`,
        [w.organizationId, run.runId],
      );
      expect(events.map((e) => e.type)).toEqual(['testrun.submitted.v1', 'testrun.completed.v1']);
      const [submitted, completed] = events.map((e) => e.data);
      expect(submitted).toMatchObject({
        id: run.runId,
        status: 'submitted',
        comparison: { baseline_run_id: baseline.runId, summary: { new_failures: 1, fixed: 0 } },
        gate: { passed: false },
      });
      expect(completed).toMatchObject({
        id: run.runId,
        status: 'completed',
        comparison: { baseline_run_id: baseline.runId, summary: { new_failures: 0, fixed: 0 } },
        gate: { passed: true },
      });
      // The run keeps the completion's verdict (CONTRACT §12), the same evaluation as its event.
      const kept = await s
        .get(TestRunsService)
        .get(organizationCaller(w.organizationId), run.runId);
      expect(kept.gate).toEqual(completed.gate);
      expect(submitted.gate).toEqual({ passed: false, evaluated_at: ISO });
    });
  });
});
