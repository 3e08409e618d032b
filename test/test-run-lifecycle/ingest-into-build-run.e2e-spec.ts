import { createProject, createRelease } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

/**
 * CONTRACT §6: the parallel shards of one pipeline post into the same run, and
 * `/results/ingest` is the one-call form for pipelines. An ingest with `join_run` (the
 * service's addition: without it, every ingest without `test_run_id` creates a run, as §6 says)
 * and a `run_name` and a `build_id` goes to that build's run of that name; the first creates
 * it, and ingests that arrive together create one run, not one each (the reporter's shards
 * spend one call each).
 */
describe('POST /results/ingest into the run of a build with a name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  async function setup() {
    const tenant = await createTenant(t, [...RUN_SCOPES, 'builds:create']);
    const project = await createProject(t, tenant.org.id);
    const build = async (name: string, releaseId?: string) =>
      (
        await t.http
          .post('/api/v1/builds')
          .set(withKey(tenant.key))
          .send({ name, project_id: project.id, release_id: releaseId })
      ).body.id as string;
    return { ...tenant, project, build };
  }

  const junit = (suite: string, cases: number, failing = -1) =>
    `<testsuite name="${suite}">${Array.from({ length: cases }, (_, i) =>
      i === failing
        ? `<testcase classname="${suite}" name="c${i}"><failure message="boom"/></testcase>`
        : `<testcase classname="${suite}" name="c${i}"/>`,
    ).join('')}</testsuite>`;

  const ingestXml = (key: string, query: Record<string, string>, body: string) =>
    t.http
      .post(`/api/v1/results/ingest?${new URLSearchParams(query).toString()}`)
      .set(withKey(key))
      .set('Content-Type', 'application/xml')
      .send(body);

  const runsOf = async (key: string, projectId: string) =>
    (await t.http.get(`/api/v1/testruns?project_id=${projectId}`).set(withKey(key)).expect(200))
      .body;

  it('puts 8 shards’ ingests arriving together into one run, every result counted', async () => {
    const { key, project, build } = await setup();
    const buildId = await build('web #40');
    const query = { project_id: project.id, run_name: 'e2e', build_id: buildId, join_run: 'true' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, shard) =>
        ingestXml(key, query, junit(`shard${shard}`, 25, shard)),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const runIds = new Set(answers.map((a) => a.body.test_run_id));
    expect(runIds.size).toBe(1);
    const runs = await runsOf(key, project.id);
    expect(runs.pagination.total).toBe(1);
    expect(runs.data[0]).toMatchObject({
      name: 'e2e',
      build_id: buildId,
      status: 'in_progress',
      counts: { total: 200, passed: 192, failed: 8 },
    });
  });

  it('joins the run of the same build and name in JSON too, completing it; another build or no build is another run', async () => {
    const { key, project, build } = await setup();
    const [first, second] = [await build('web #41'), await build('web #42')];
    const post = (body: object) =>
      t.http.post('/api/v1/results/ingest').set(withKey(key)).send(body);
    const item = (id: string) => ({ automation_id: id, status: 'passed' });
    const a = await post({
      project_id: project.id,
      run_name: 'nightly',
      build_id: first,
      join_run: true,
      results: [item('a')],
    }).expect(201);
    const b = await post({
      project_id: project.id,
      run_name: 'nightly',
      build_id: first,
      join_run: true,
      results: [item('b')],
      complete: true,
    }).expect(201);
    expect(b.body).toEqual({ test_run_id: a.body.test_run_id, accepted: 1, created_test_cases: 1 });
    const other = await post({
      project_id: project.id,
      run_name: 'nightly',
      build_id: second,
      join_run: true,
      results: [item('a')],
    }).expect(201);
    // Without join_run (CONTRACT §6), with the same build and name or without a build: each
    // ingest creates a run.
    const bare = await Promise.all([
      post({ project_id: project.id, run_name: 'nightly', build_id: first, results: [item('a')] }),
      post({ project_id: project.id, run_name: 'nightly', results: [item('a')] }),
      post({ project_id: project.id, run_name: 'nightly', results: [item('a')] }),
    ]);
    expect(bare.map((r) => r.status)).toEqual([201, 201, 201]);
    const ids = [a, other, ...bare].map((r) => r.body.test_run_id);
    expect(new Set(ids).size).toBe(5);
    // join_run needs the build and the name it joins by.
    const alone = await post({
      project_id: project.id,
      run_name: 'nightly',
      join_run: true,
      results: [item('a')],
    }).expect(400);
    expect(alone.body).toMatchObject({ error: 'invalid_request', details: { field: 'join_run' } });
    const wrong = await ingestXml(
      key,
      { project_id: project.id, run_name: 'x', build_id: first, join_run: 'yes' },
      junit('w', 1),
    ).expect(400);
    expect(wrong.body.details.field).toBe('join_run');
    const run = await t.http
      .get(`/api/v1/testruns/${a.body.test_run_id}`)
      .set(withKey(key))
      .expect(200);
    expect(run.body).toMatchObject({ status: 'completed', counts: { total: 2, passed: 2 } });
  });

  it('refuses results into the build’s completed run (409) and a release that differs from its run’s (400)', async () => {
    const { key, project, build } = await setup();
    const release = await createRelease(t, project.id);
    const buildId = await build('web #43', release.id);
    const query = { project_id: project.id, run_name: 'e2e', build_id: buildId, join_run: 'true' };
    const created = await ingestXml(
      key,
      { ...query, release_id: release.id, complete: 'true' },
      junit('a', 2),
    ).expect(201);
    const closed = await ingestXml(key, query, junit('b', 1)).expect(409);
    expect(closed.body.error).toBe('conflict');
    // Reopened (a CI job run again), it takes results again, still one run.
    await t.http
      .patch(`/api/v1/testruns/${created.body.test_run_id}`)
      .set(withKey(key))
      .send({ status: 'in_progress' })
      .expect(200);
    const again = await ingestXml(key, query, junit('b', 1)).expect(201);
    expect(again.body.test_run_id).toBe(created.body.test_run_id);
    const otherRelease = await createRelease(t, project.id);
    const mismatch = await ingestXml(
      key,
      { ...query, release_id: otherRelease.id },
      junit('c', 1),
    ).expect(400);
    expect(mismatch.body.details.field).toBe('release_id');
    expect((await runsOf(key, project.id)).pagination.total).toBe(1);
  });

  it('never joins another organization’s run, nor lets a build of another organization name one', async () => {
    const mine = await setup();
    const theirs = await setup();
    const buildId = await theirs.build('theirs #1');
    await ingestXml(
      theirs.key,
      { project_id: theirs.project.id, run_name: 'e2e', build_id: buildId, join_run: 'true' },
      junit('t', 1),
    ).expect(201);
    const refused = await ingestXml(
      mine.key,
      { project_id: mine.project.id, run_name: 'e2e', build_id: buildId, join_run: 'true' },
      junit('m', 1),
    ).expect(400);
    expect(refused.body.details.field).toBe('build_id');
    expect((await runsOf(theirs.key, theirs.project.id)).data[0].counts.total).toBe(1);
  });
});
