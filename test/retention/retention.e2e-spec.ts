import { DataSource } from 'typeorm';
import { createProject, createRelease } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { RetentionSweeper } from '../../src/retention/retention-sweeper.js';
import { HTTPS, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';
const DAY_MS = 24 * 60 * 60 * 1000;
const SCOPES = [...RUN_SCOPES, 'quarantine:manage'];

describe('retention: a project keeps its runs for a number of days', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    // The worker's sweeper runs in this app; its timer is an hour away, the test calls it.
    t = await startApp({ APP_ROLE: 'all' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const retentionPath = (projectId: string) => `/internal/v1/projects/${projectId}/retention`;

  /** A run of `results`, submitted, created `daysAgo` days ago. */
  async function run(
    key: string,
    projectId: string,
    daysAgo: number,
    results: object[],
    fields: object = {},
  ) {
    const created = await createRun(t, key, projectId, { name: `nightly ${daysAgo}`, ...fields });
    expect((await submitResults(t, key, created.id, results)).status).toBe(201);
    await t.http
      .patch(`/api/v1/testruns/${created.id}`)
      .set(withKey(key))
      .send({ status: 'submitted' })
      .expect(200);
    await db.query('UPDATE test_run SET created_at = $2 WHERE id = $1', [
      created.id,
      new Date(Date.now() - daysAgo * DAY_MS),
    ]);
    return created.id;
  }

  const rowsOf = async (runIds: string[]) => {
    const [{ results, slots }] = await db.query(
      `SELECT (SELECT count(*)::int FROM test_result WHERE test_run_id = ANY($1::uuid[])) AS results,
              (SELECT count(*)::int FROM test_run_case WHERE test_run_id = ANY($1::uuid[])) AS slots`,
      [runIds],
    );
    return { results, slots };
  };

  it('is read and set through the internal API; null keeps every run', async () => {
    const { org } = await createTenant(t, SCOPES);
    const project = await createProject(t, org.id);
    await t.http
      .get(retentionPath(project.id))
      .set(OPERATOR)
      .expect(200, { project_id: project.id, retention_days: null });
    await t.http
      .patch(retentionPath(project.id))
      .set(OPERATOR)
      .send({ retention_days: 30 })
      .expect(200, { project_id: project.id, retention_days: 30 });
    await t.http
      .get(retentionPath(project.id))
      .set(OPERATOR)
      .expect(200, { project_id: project.id, retention_days: 30 });
    await t.http
      .patch(retentionPath(project.id))
      .set(OPERATOR)
      .send({ retention_days: null })
      .expect(200, { project_id: project.id, retention_days: null });
  });

  it.each([[0], [3651], [1.5], ['30'], [true]])(
    'refuses retention_days %p with a 400 naming the field, changing nothing',
    async (days) => {
      const { org } = await createTenant(t, SCOPES);
      const project = await createProject(t, org.id);
      const res = await t.http
        .patch(retentionPath(project.id))
        .set(OPERATOR)
        .send({ retention_days: days })
        .expect(400);
      expect(res.body.error).toBe('invalid_request');
      expect(JSON.stringify(res.body)).toContain('retention_days');
      const [row] = await db.query('SELECT retention_days FROM project WHERE id = $1', [
        project.id,
      ]);
      expect(row.retention_days).toBeNull();
    },
  );

  it('answers 404 for an unknown project and 401 without the operator token', async () => {
    await t.http.get(retentionPath(UNKNOWN_ID)).set(OPERATOR).expect(404);
    await t.http
      .patch(retentionPath(UNKNOWN_ID))
      .set(OPERATOR)
      .send({ retention_days: 30 })
      .expect(404);
    const { org, key } = await createTenant(t, SCOPES);
    const project = await createProject(t, org.id);
    await t.http.get(retentionPath(project.id)).set(HTTPS).expect(401);
    // An API key is not the operator: the internal API refuses it.
    const withApiKey = await t.http
      .patch(retentionPath(project.id))
      .set(withKey(key))
      .send({ retention_days: 1 });
    expect([401, 403]).toContain(withApiKey.status);
  });

  it('deletes the runs older than the retention with their results, and nothing else', async () => {
    const a = await createTenant(t, SCOPES);
    const kept = await createProject(t, a.org.id);
    const expiring = await createProject(t, a.org.id);
    const results = [
      { automation_id: 'suite.flips', status: 'failed', message: 'boom' },
      { automation_id: 'suite.steady', status: 'passed' },
    ];
    const passing = [
      { automation_id: 'suite.flips', status: 'passed' },
      { automation_id: 'suite.steady', status: 'passed' },
    ];
    const release = await createRelease(t, expiring.id);
    const inRelease = { release_id: release.id };
    const oldRuns = [
      await run(a.key, expiring.id, 45, results, inRelease),
      await run(a.key, expiring.id, 40, passing),
      await run(a.key, expiring.id, 35, results, inRelease),
    ];
    const recentRuns = [
      await run(a.key, expiring.id, 3, passing, inRelease),
      await run(a.key, expiring.id, 2, results),
    ];
    const keptOldRun = await run(a.key, kept.id, 400, results);
    await t.http
      .patch(retentionPath(expiring.id))
      .set(OPERATOR)
      .send({ retention_days: 30 })
      .expect(200);

    const [flipping] = await db.query(
      `SELECT id FROM test_case WHERE project_id = $1 AND automation_id = 'suite.flips'`,
      [expiring.id],
    );
    await t.http
      .put(`/api/v1/projects/${expiring.id}/quarantine/${flipping.id}`)
      .set(withKey(a.key))
      .send({ reason: 'flaky on shared runners' })
      .expect(200);
    const flakyBefore = await t.http
      .get(`/api/v1/projects/${expiring.id}/flaky-tests`)
      .set(withKey(a.key))
      .expect(200);
    const before = flakyBefore.body.data.find(
      (item: { automation_id: string }) => item.automation_id === 'suite.flips',
    );
    expect(before.executions).toBe(5);

    const report = await t.app.get(RetentionSweeper).sweep();
    expect(report.runs).toBe(3);

    for (const id of oldRuns)
      await t.http.get(`/api/v1/testruns/${id}`).set(withKey(a.key)).expect(404);
    expect(await rowsOf(oldRuns)).toEqual({ results: 0, slots: 0 });
    for (const id of recentRuns)
      await t.http.get(`/api/v1/testruns/${id}`).set(withKey(a.key)).expect(200);
    expect(await rowsOf(recentRuns)).toEqual({ results: 4, slots: 4 });
    // Another project without a retention keeps even its oldest run.
    await t.http.get(`/api/v1/testruns/${keptOldRun}`).set(withKey(a.key)).expect(200);
    expect(await rowsOf([keptOldRun])).toEqual({ results: 2, slots: 2 });

    // The flaky list counts only the runs that exist; the cases and their quarantine stay.
    const flakyAfter = await t.http
      .get(`/api/v1/projects/${expiring.id}/flaky-tests?min_executions=2`)
      .set(withKey(a.key))
      .expect(200);
    const after = flakyAfter.body.data.find(
      (item: { automation_id: string }) => item.automation_id === 'suite.flips',
    );
    expect(after.executions).toBe(2);
    const quarantine = await t.http
      .get(`/api/v1/projects/${expiring.id}/quarantine`)
      .set(withKey(a.key))
      .expect(200);
    expect(quarantine.body.data.map((e: { test_case_id: string }) => e.test_case_id)).toEqual([
      flipping.id,
    ]);
    const [{ cases }] = await db.query(
      'SELECT count(*)::int AS cases FROM test_case WHERE project_id = $1',
      [expiring.id],
    );
    expect(cases).toBe(2);

    // The release keeps its recent run and counts the two deleted.
    const [releaseRow] = await db.query(
      'SELECT runs_deleted, (SELECT count(*)::int FROM test_run WHERE release_id = $1) AS runs FROM release WHERE id = $1',
      [release.id],
    );
    expect(releaseRow).toEqual({ runs_deleted: 2, runs: 1 });

    // A second sweep finds nothing more to delete.
    expect(await t.app.get(RetentionSweeper).sweep()).toEqual({ months: 0, runs: 0, slots: 0 });
  });

  it('skips a run another transaction holds (a replica sweeping, a batch being written) and deletes it later', async () => {
    const a = await createTenant(t, SCOPES);
    const project = await createProject(t, a.org.id);
    const results = [{ automation_id: 'suite.one', status: 'passed' }];
    const held = await run(a.key, project.id, 50, results);
    const free = await run(a.key, project.id, 49, results);
    await t.http
      .patch(retentionPath(project.id))
      .set(OPERATOR)
      .send({ retention_days: 7 })
      .expect(200);

    const holder = db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query('SELECT id FROM test_run WHERE id = $1 FOR UPDATE', [held]);
      const report = await t.app.get(RetentionSweeper).sweep();
      expect(report.runs).toBe(1);
      await t.http.get(`/api/v1/testruns/${free}`).set(withKey(a.key)).expect(404);
      await t.http.get(`/api/v1/testruns/${held}`).set(withKey(a.key)).expect(200);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    expect((await t.app.get(RetentionSweeper).sweep()).runs).toBe(1);
    await t.http.get(`/api/v1/testruns/${held}`).set(withKey(a.key)).expect(404);
  });
});
