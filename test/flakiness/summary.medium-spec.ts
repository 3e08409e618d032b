import { BuildsModule } from '../../src/builds/builds.module.js';
import { BuildsService } from '../../src/builds/builds.service.js';
import { organizationCaller } from '../../src/common/caller.js';
import { BACKFILL, OUTCOME_SLOTS } from '../../src/flakiness/case-outcomes.repository.js';
import { FlakyTestsQuery } from '../../src/flakiness/dto/flaky-test.dto.js';
import { FlakinessModule } from '../../src/flakiness/flakiness.module.js';
import { FlakyTestsService } from '../../src/flakiness/flaky-tests.service.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import type { TestRunStatus } from '../../src/testruns/entities/test-run.entity.js';
import { refusal, useCases, type TierProject, type TierRun } from '../factories/use-cases.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

/** What a run records for a case: `P` passed, `F` failed, `S` skipped, `R` passed on retry. */
const OUTCOMES: Record<string, object> = {
  P: { status: 'passed' },
  F: { status: 'failed' },
  S: { status: 'skipped' },
  R: { status: 'passed', retries: 1 },
};

/** A case's row of the summary with the `.`s before its first and after its last slot cut. */
interface Slots {
  automation_id: string;
  base: number;
  outcomes: string;
}

// The summary the flaky list reads, as the write path and the lifecycle keep it, on the real
// database without HTTP (moved from summary.e2e-spec.ts; the list's route, its parameters and
// scopes are in flaky-tests.e2e-spec.ts).
describe('the flaky list’s summary (case_outcomes, service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startServiceTier([
      OrganizationsModule,
      ProjectsModule,
      BuildsModule,
      TestRunLifecycleModule,
      FlakinessModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  const items = (outcomes: Record<string, string>) =>
    Object.entries(outcomes).map(([name, outcome]) => ({
      automation_id: name,
      ...OUTCOMES[outcome],
    }));

  /** A run with one result per case of `outcomes` (`{a: 'F'}`), on a build of `branch`. */
  async function run(p: TierProject, outcomes: Record<string, string>, branch?: string) {
    let buildId: string | undefined;
    if (branch !== undefined) {
      const build = await s
        .get(BuildsService)
        .create(p.organizationId, { name: 'build', project_id: p.projectId, branch }, 'api');
      buildId = (build.body as { id: string }).id;
    }
    const created = await the.run(p, buildId ? { build_id: buildId } : {});
    await the.submit(created, items(outcomes));
    return created;
  }

  const write = (r: TierRun, outcomes: Record<string, string>) => the.submit(r, items(outcomes));
  const move = (r: TierRun, status: TestRunStatus) => the.transition(r, status);

  async function flaky(p: TierProject, query: Partial<FlakyTestsQuery> = {}) {
    const page = await s
      .get(FlakyTestsService)
      .list(
        organizationCaller(p.organizationId),
        p.projectId,
        Object.assign(new FlakyTestsQuery(), query),
      );
    return page.data.map((i) => [
      i.automation_id,
      i.executions,
      i.flips,
      i.flip_rate,
      i.retried_passes,
      i.last_status,
    ]);
  }

  async function slots(projectId: string): Promise<Slots[]> {
    return s.db.query(
      `SELECT tc.automation_id,
              o.base + length(o.outcomes) - length(ltrim(o.outcomes, '.')) AS base,
              trim(o.outcomes, '.') AS outcomes
       FROM case_outcomes o JOIN test_case tc ON tc.id = o.test_case_id
       WHERE o.project_id = $1 ORDER BY tc.automation_id`,
      [projectId],
    );
  }

  it('counts results written into a submitted run, and a completed run takes none', async () => {
    const p = await the.project();
    const runs: TierRun[] = [];
    for (const outcome of 'PPPPP') runs.push(await run(p, { a: outcome, b: 'P' }));
    for (const r of runs) await move(r, 'submitted');
    expect(await flaky(p)).toEqual([]);
    // The third run's current result of `a` becomes a failure; `c` is new, in two runs.
    await write(runs[2], { a: 'F', c: 'F' });
    await write(runs[4], { c: 'P' });
    expect(await flaky(p, { min_executions: 2 })).toEqual([
      ['c', 2, 1, 1, 0, 'passed'],
      ['a', 5, 2, 0.5, 0, 'passed'],
    ]);
    // A result that is neither passed nor failed takes the run's slot out of the window.
    await write(runs[4], { c: 'S' });
    await write(runs[2], { a: 'P', b: 'R' });
    expect(await flaky(p, { min_executions: 2 })).toEqual([['b', 5, 0, 0, 1, 'passed']]);
    // Completed, it takes no results (until it is reopened): its outcomes stay as they were.
    await move(runs[2], 'completed');
    expect(await refusal(write(runs[2], { a: 'F' }))).toMatchObject({ status: 409 });
    expect(await flaky(p, { min_executions: 2 })).toEqual([['b', 5, 0, 0, 1, 'passed']]);
    expect(await slots(p.projectId)).toEqual([
      { automation_id: 'a', base: 0, outcomes: 'PPPPP' },
      { automation_id: 'b', base: 0, outcomes: 'PPRPP' },
      { automation_id: 'c', base: 2, outcomes: 'F' },
    ]);
  });

  it('rewrites a reopened run’s outcomes instead of adding them: out while open, anew once closed', async () => {
    const p = await the.project();
    const runs: TierRun[] = [];
    for (const outcome of 'PFP') runs.push(await run(p, { a: outcome, b: 'P' }));
    for (const r of runs) await move(r, 'submitted');
    expect(await flaky(p, { min_executions: 2 })).toEqual([['a', 3, 2, 1, 0, 'passed']]);
    // Reopened, the run is in progress again: its outcomes do not count while it is open.
    await move(runs[1], 'in_progress');
    expect(await flaky(p, { min_executions: 2 })).toEqual([]);
    await write(runs[1], { b: 'F' });
    expect(await flaky(p, { min_executions: 2 })).toEqual([]);
    // Completed again: each case once in the run's own slot, with its current result now.
    await move(runs[1], 'completed');
    expect(await flaky(p, { min_executions: 2 })).toEqual([
      ['a', 3, 2, 1, 0, 'passed'],
      ['b', 3, 2, 1, 0, 'passed'],
    ]);
    // A result that is no longer passed or failed takes the slot out, through a reopening too.
    await move(runs[1], 'in_progress');
    await write(runs[1], { a: 'S' });
    await move(runs[1], 'completed');
    expect(await flaky(p, { min_executions: 2 })).toEqual([['b', 3, 2, 1, 0, 'passed']]);
    expect(await slots(p.projectId)).toEqual([
      { automation_id: 'a', base: 0, outcomes: 'P.P' },
      { automation_id: 'b', base: 0, outcomes: 'PFP' },
    ]);
  });

  it('orders results by the runs’ creation, whatever order they are submitted in', async () => {
    const p = await the.project();
    const runs: TierRun[] = [];
    for (const [a, b] of ['PF', 'FF', 'PP', 'FP', 'PP']) runs.push(await run(p, { a, b }));
    // Created 1 to 5; submitted or completed as 5, 3, 1, 4, 2; only the first move counts.
    await move(runs[4], 'submitted');
    await move(runs[2], 'completed');
    await move(runs[0], 'submitted');
    await move(runs[3], 'submitted');
    await move(runs[1], 'submitted');
    await move(runs[4], 'completed');
    expect(await flaky(p)).toEqual([
      ['a', 5, 4, 1, 0, 'passed'], // P F P F P
      ['b', 5, 1, 0.25, 0, 'passed'], // F F P P P
    ]);
  });

  it('keeps only the slots of runs on `branch`, however the branches interleave', async () => {
    const p = await the.project();
    const plan: Array<[string, string, string]> = [
      ['main', 'P', 'P'],
      ['dev', 'F', 'P'],
      ['main', 'F', 'P'],
      ['main', 'P', 'F'],
      ['dev', 'F', 'P'],
      ['other', 'P', 'P'],
      ['main', 'F', 'P'],
      ['dev', 'F', 'F'],
      ['main', 'P', 'P'],
    ];
    for (const [branch, x, y] of plan) await move(await run(p, { x, y }, branch), 'submitted');
    // main: x P F P F P, y P P F P P; dev: x F F F, y P P F.
    expect(await flaky(p, { branch: 'main' })).toEqual([
      ['x', 5, 4, 1, 0, 'passed'],
      ['y', 5, 2, 0.5, 0, 'passed'],
    ]);
    expect(await flaky(p, { branch: 'dev', min_executions: 3 })).toEqual([
      ['y', 3, 1, 0.5, 0, 'failed'],
    ]);
    expect(await flaky(p, { branch: 'main', window: 3, min_executions: 2 })).toEqual([
      ['x', 3, 2, 1, 0, 'passed'],
      ['y', 3, 1, 0.5, 0, 'passed'],
    ]);
    expect(await flaky(p, { branch: 'nowhere' })).toEqual([]);
  });

  it('writes a slot before a case’s first one and drops the oldest past the cap', async () => {
    const p = await the.project();
    const first = await run(p, { a: 'P' });
    const second = await run(p, { a: 'P', b: 'P' });
    await move(first, 'submitted');
    await move(second, 'submitted');
    await write(first, { b: 'F' });
    expect(await slots(p.projectId)).toEqual([
      { automation_id: 'a', base: 0, outcomes: 'PP' },
      { automation_id: 'b', base: 0, outcomes: 'FP' },
    ]);
    // Runs far later: the slots of `a` that are more than OUTCOME_SLOTS runs old go.
    await s.db.query('UPDATE project SET runs_created = $2 WHERE id = $1', [
      p.projectId,
      OUTCOME_SLOTS,
    ]);
    await move(await run(p, { a: 'F' }), 'completed');
    const [a] = await s.db.query(
      `SELECT o.base, length(o.outcomes) AS slots, right(o.outcomes, 1) AS newest
       FROM case_outcomes o JOIN test_case tc ON tc.id = o.test_case_id
       WHERE tc.project_id = $1 AND tc.automation_id = 'a'`,
      [p.projectId],
    );
    expect(a).toEqual({ base: 1, slots: OUTCOME_SLOTS, newest: 'F' });
    // `a` ran three times, but its first run is out of the summary: its window is cut there.
    expect(await flaky(p, { min_executions: 2 })).toEqual([
      ['a', 2, 1, 1, 0, 'failed'],
      ['b', 2, 1, 1, 0, 'passed'],
    ]);
  });

  it('fills the summary from the runs as the writers keep it (the backfill)', async () => {
    const p = await the.project();
    const runs: TierRun[] = [];
    runs.push(await run(p, { a: 'P', b: 'F', c: 'S' }));
    runs.push(await run(p, { a: 'R', b: 'P' }));
    runs.push(await run(p, { a: 'F', c: 'P', d: 'F' }));
    runs.push(await run(p, { a: 'P', b: 'F', d: 'P' }));
    runs.push(await run(p, { a: 'F', c: 'F' }));
    await move(runs[3], 'submitted');
    await move(runs[0], 'completed');
    await move(runs[2], 'submitted');
    await move(runs[1], 'submitted');
    // runs[4] stays in progress; results change a submitted run.
    await write(runs[2], { a: 'P', b: 'R', d: 'S' });
    const kept = await slots(p.projectId);
    const listed = await flaky(p, { min_executions: 2 });
    expect(kept).toEqual([
      { automation_id: 'a', base: 0, outcomes: 'PRPP' },
      { automation_id: 'b', base: 0, outcomes: 'FPRF' },
      { automation_id: 'c', base: 2, outcomes: 'P' },
      { automation_id: 'd', base: 3, outcomes: 'P' },
    ]);
    await s.db.query('DELETE FROM case_outcomes WHERE project_id = $1', [p.projectId]);
    await s.db.query(BACKFILL, [p.projectId]);
    expect(await slots(p.projectId)).toEqual(kept);
    expect(await flaky(p, { min_executions: 2 })).toEqual(listed);
  });

  it('lets a case’s slots go with the case and its project, and keeps test_case from being truncated under them', async () => {
    const p = await the.project();
    await move(await run(p, { a: 'P', b: 'F' }), 'submitted');
    const other = await the.project();
    await move(await run(other, { a: 'F' }), 'submitted');
    expect((await slots(p.projectId)).map((row) => row.automation_id)).toEqual(['a', 'b']);

    await s.db.query(`DELETE FROM test_case WHERE project_id = $1 AND automation_id = 'a'`, [
      p.projectId,
    ]);
    expect(await slots(p.projectId)).toEqual([{ automation_id: 'b', base: 0, outcomes: 'F' }]);
    const orphans = `SELECT count(*)::int AS n FROM case_outcomes o
                      WHERE NOT EXISTS (SELECT 1 FROM test_case tc WHERE tc.id = o.test_case_id)`;
    expect(await s.db.query(orphans)).toEqual([{ n: 0 }]);

    // Its guard is the first of test_case's (triggers fire in the order of their names).
    const truncate = await s.db.query('TRUNCATE test_case CASCADE').then(
      () => null,
      (e: { code?: string; message: string }) => e,
    );
    expect(truncate).toMatchObject({
      code: '23503',
      message: expect.stringContaining('"case_outcomes"'),
    });

    await s.db.query('DELETE FROM project WHERE id = $1', [p.projectId]);
    expect(
      await s.db.query('SELECT 1 FROM case_outcomes WHERE project_id = $1', [p.projectId]),
    ).toEqual([]);
    expect(await slots(other.projectId)).toEqual([{ automation_id: 'a', base: 0, outcomes: 'F' }]);
    expect(await s.db.query(orphans)).toEqual([{ n: 0 }]);
  });
});
