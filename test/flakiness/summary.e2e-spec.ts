import { DataSource } from 'typeorm';
import { BACKFILL, OUTCOME_SLOTS } from '../../src/flakiness/case-outcomes.repository.js';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

/** What a run records for a case: `P` passed, `F` failed, `S` skipped, `R` passed on retry. */
const OUTCOMES: Record<string, object> = {
  P: { status: 'passed' },
  F: { status: 'failed' },
  S: { status: 'skipped' },
  R: { status: 'passed', retries: 1 },
};

interface FlakyItem {
  automation_id: string;
  executions: number;
  flips: number;
  flip_rate: number;
  retried_passes: number;
  last_status: string;
}

/** A case's row of the summary with the `.`s before its first and after its last slot cut. */
interface Slots {
  automation_id: string;
  base: number;
  outcomes: string;
}

describe('the flaky list’s summary (case_outcomes)', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await startApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function project() {
    const tenant = await createTenant(t, [...RUN_SCOPES, 'builds:create']);
    return { ...tenant, project: await createProject(t, tenant.org.id) };
  }

  /** A run with one result per case of `outcomes` (`{a: 'F'}`), on a build of `branch`. */
  async function run(
    key: string,
    projectId: string,
    outcomes: Record<string, string>,
    branch?: string,
  ) {
    let buildId: string | undefined;
    if (branch !== undefined) {
      const build = await t.http
        .post('/api/v1/builds')
        .set(withKey(key))
        .send({ name: 'build', project_id: projectId, branch });
      buildId = build.body.id;
    }
    const created = await createRun(t, key, projectId, buildId ? { build_id: buildId } : {});
    await write(key, created.id, outcomes, 201);
    return created.id;
  }

  async function write(
    key: string,
    runId: string,
    outcomes: Record<string, string>,
    status: number,
  ) {
    const results = Object.entries(outcomes).map(([name, outcome]) => ({
      automation_id: name,
      ...OUTCOMES[outcome],
    }));
    const res = await submitResults(t, key, runId, results);
    expect(res.status).toBe(status);
    return res;
  }

  async function move(key: string, runId: string, status: string) {
    await t.http.patch(`/api/v1/testruns/${runId}`).set(withKey(key)).send({ status }).expect(200);
  }

  async function flaky(key: string, projectId: string, query = '') {
    const res = await t.http
      .get(`/api/v1/projects/${projectId}/flaky-tests${query}`)
      .set(withKey(key))
      .expect(200);
    return (res.body.data as FlakyItem[]).map((i) => [
      i.automation_id,
      i.executions,
      i.flips,
      i.flip_rate,
      i.retried_passes,
      i.last_status,
    ]);
  }

  async function slots(projectId: string): Promise<Slots[]> {
    return db.query(
      `SELECT tc.automation_id,
              o.base + length(o.outcomes) - length(ltrim(o.outcomes, '.')) AS base,
              trim(o.outcomes, '.') AS outcomes
       FROM case_outcomes o JOIN test_case tc ON tc.id = o.test_case_id
       WHERE o.project_id = $1 ORDER BY tc.automation_id`,
      [projectId],
    );
  }

  it('counts results written into a submitted run, and a completed run takes none', async () => {
    const { key, project: p } = await project();
    const runs: string[] = [];
    for (const outcome of 'PPPPP') runs.push(await run(key, p.id, { a: outcome, b: 'P' }));
    for (const id of runs) await move(key, id, 'submitted');
    expect(await flaky(key, p.id)).toEqual([]);
    // The third run's current result of `a` becomes a failure; `c` is new, in two runs.
    await write(key, runs[2], { a: 'F', c: 'F' }, 201);
    await write(key, runs[4], { c: 'P' }, 201);
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([
      ['c', 2, 1, 1, 0, 'passed'],
      ['a', 5, 2, 0.5, 0, 'passed'],
    ]);
    // A result that is neither passed nor failed takes the run's slot out of the window.
    await write(key, runs[4], { c: 'S' }, 201);
    await write(key, runs[2], { a: 'P', b: 'R' }, 201);
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([['b', 5, 0, 0, 1, 'passed']]);
    // Completed, it takes no results (until it is reopened): its outcomes stay as they were.
    await move(key, runs[2], 'completed');
    await write(key, runs[2], { a: 'F' }, 409);
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([['b', 5, 0, 0, 1, 'passed']]);
    expect(await slots(p.id)).toEqual([
      { automation_id: 'a', base: 0, outcomes: 'PPPPP' },
      { automation_id: 'b', base: 0, outcomes: 'PPRPP' },
      { automation_id: 'c', base: 2, outcomes: 'F' },
    ]);
  });

  it('rewrites a reopened run’s outcomes instead of adding them: out while open, anew once closed', async () => {
    const { key, project: p } = await project();
    const runs: string[] = [];
    for (const outcome of 'PFP') runs.push(await run(key, p.id, { a: outcome, b: 'P' }));
    for (const id of runs) await move(key, id, 'submitted');
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([['a', 3, 2, 1, 0, 'passed']]);
    // Reopened, the run is in progress again: its outcomes do not count while it is open.
    await move(key, runs[1], 'in_progress');
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([]);
    await write(key, runs[1], { b: 'F' }, 201);
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([]);
    // Completed again: each case once in the run's own slot, with its current result now.
    await move(key, runs[1], 'completed');
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([
      ['a', 3, 2, 1, 0, 'passed'],
      ['b', 3, 2, 1, 0, 'passed'],
    ]);
    // A result that is no longer passed or failed takes the slot out, through a reopening too.
    await move(key, runs[1], 'in_progress');
    await write(key, runs[1], { a: 'S' }, 201);
    await move(key, runs[1], 'completed');
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([['b', 3, 2, 1, 0, 'passed']]);
    expect(await slots(p.id)).toEqual([
      { automation_id: 'a', base: 0, outcomes: 'P.P' },
      { automation_id: 'b', base: 0, outcomes: 'PFP' },
    ]);
  });

  it('orders results by the runs’ creation, whatever order they are submitted in', async () => {
    const { key, project: p } = await project();
    const runs: string[] = [];
    for (const [a, b] of ['PF', 'FF', 'PP', 'FP', 'PP']) runs.push(await run(key, p.id, { a, b }));
    // Created 1 to 5; submitted or completed as 5, 3, 1, 4, 2; only the first move counts.
    await move(key, runs[4], 'submitted');
    await move(key, runs[2], 'completed');
    await move(key, runs[0], 'submitted');
    await move(key, runs[3], 'submitted');
    await move(key, runs[1], 'submitted');
    await move(key, runs[4], 'completed');
    expect(await flaky(key, p.id)).toEqual([
      ['a', 5, 4, 1, 0, 'passed'], // P F P F P
      ['b', 5, 1, 0.25, 0, 'passed'], // F F P P P
    ]);
  });

  it('keeps only the slots of runs on `branch`, however the branches interleave', async () => {
    const { key, project: p } = await project();
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
    for (const [branch, x, y] of plan)
      await move(key, await run(key, p.id, { x, y }, branch), 'submitted');
    // main: x P F P F P, y P P F P P; dev: x F F F, y P P F.
    expect(await flaky(key, p.id, '?branch=main')).toEqual([
      ['x', 5, 4, 1, 0, 'passed'],
      ['y', 5, 2, 0.5, 0, 'passed'],
    ]);
    expect(await flaky(key, p.id, '?branch=dev&min_executions=3')).toEqual([
      ['y', 3, 1, 0.5, 0, 'failed'],
    ]);
    expect(await flaky(key, p.id, '?branch=main&window=3&min_executions=2')).toEqual([
      ['x', 3, 2, 1, 0, 'passed'],
      ['y', 3, 1, 0.5, 0, 'passed'],
    ]);
    expect(await flaky(key, p.id, '?branch=nowhere')).toEqual([]);
  });

  it('writes a slot before a case’s first one and drops the oldest past the cap', async () => {
    const { key, project: p } = await project();
    const first = await run(key, p.id, { a: 'P' });
    const second = await run(key, p.id, { a: 'P', b: 'P' });
    await move(key, first, 'submitted');
    await move(key, second, 'submitted');
    await write(key, first, { b: 'F' }, 201);
    expect(await slots(p.id)).toEqual([
      { automation_id: 'a', base: 0, outcomes: 'PP' },
      { automation_id: 'b', base: 0, outcomes: 'FP' },
    ]);
    // Runs far later: the slots of `a` that are more than OUTCOME_SLOTS runs old go.
    await db.query('UPDATE project SET runs_created = $2 WHERE id = $1', [p.id, OUTCOME_SLOTS]);
    await move(key, await run(key, p.id, { a: 'F' }), 'completed');
    const [a] = await db.query(
      `SELECT o.base, length(o.outcomes) AS slots, right(o.outcomes, 1) AS newest
       FROM case_outcomes o JOIN test_case tc ON tc.id = o.test_case_id
       WHERE tc.project_id = $1 AND tc.automation_id = 'a'`,
      [p.id],
    );
    expect(a).toEqual({ base: 1, slots: OUTCOME_SLOTS, newest: 'F' });
    // `a` ran three times, but its first run is out of the summary: its window is cut there.
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual([
      ['a', 2, 1, 1, 0, 'failed'],
      ['b', 2, 1, 1, 0, 'passed'],
    ]);
  });

  it('fills the summary from the runs as the writers keep it (the backfill)', async () => {
    const { key, project: p } = await project();
    const runs: string[] = [];
    runs.push(await run(key, p.id, { a: 'P', b: 'F', c: 'S' }));
    runs.push(await run(key, p.id, { a: 'R', b: 'P' }));
    runs.push(await run(key, p.id, { a: 'F', c: 'P', d: 'F' }));
    runs.push(await run(key, p.id, { a: 'P', b: 'F', d: 'P' }));
    runs.push(await run(key, p.id, { a: 'F', c: 'F' }));
    await move(key, runs[3], 'submitted');
    await move(key, runs[0], 'completed');
    await move(key, runs[2], 'submitted');
    await move(key, runs[1], 'submitted');
    // runs[4] stays in progress; results change a submitted run.
    await write(key, runs[2], { a: 'P', b: 'R', d: 'S' }, 201);
    const kept = await slots(p.id);
    const listed = await flaky(key, p.id, '?min_executions=2');
    expect(kept).toEqual([
      { automation_id: 'a', base: 0, outcomes: 'PRPP' },
      { automation_id: 'b', base: 0, outcomes: 'FPRF' },
      { automation_id: 'c', base: 2, outcomes: 'P' },
      { automation_id: 'd', base: 3, outcomes: 'P' },
    ]);
    await db.query('DELETE FROM case_outcomes WHERE project_id = $1', [p.id]);
    await db.query(BACKFILL, [p.id]);
    expect(await slots(p.id)).toEqual(kept);
    expect(await flaky(key, p.id, '?min_executions=2')).toEqual(listed);
  });
});
