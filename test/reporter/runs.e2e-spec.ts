import type { Io } from '../../packages/reporter/src/main.js';
import { httpTransport } from '../../packages/reporter/src/transport.js';
import { createProject, type ProjectFixture } from '../factories/catalog.js';
import { createApiKey } from '../factories/organizations.js';
import { junit, SHA, startReporterHarness, type ReporterHarness } from './reporter-harness.js';

/** How tm-report finds, creates, reopens and completes a run, and registers its build. */
describe('tm-report and the run of a pipeline', () => {
  let h: ReporterHarness;
  let project: ProjectFixture;
  beforeAll(async () => {
    h = await startReporterHarness();
    project = await createProject(h.t, h.orgId);
  });
  afterAll(() => h.t.close());

  const runsOf = async (projectId: string) =>
    (await h.get(`/api/v1/testruns?project_id=${projectId}&limit=100`).expect(200)).body;

  let calls: string[] = [];
  const counting: Io['retry'] = {
    transport: (outgoing, timeoutMs) => {
      calls.push(`${outgoing.method} ${outgoing.url.pathname}`);
      return httpTransport(outgoing, timeoutMs);
    },
  };
  beforeEach(() => {
    calls = [];
  });

  describe('a job run again (CONTRACT §6: reopening)', () => {
    const github = (attempt: number) => ({
      GITHUB_ACTIONS: 'true',
      GITHUB_RUN_ID: `rerun-${project.id}`,
      GITHUB_RUN_NUMBER: '12',
      GITHUB_RUN_ATTEMPT: String(attempt),
      GITHUB_SHA: SHA,
      GITHUB_REF_NAME: 'main',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/web-shop',
    });

    it('reopens the run the first attempt completed, instead of failing with 409', async () => {
      const name = ['--project', project.key, '--run-name', 're-run'];
      h.write('rerun/red.xml', junit('rerun.Shop', 4, [2]));
      h.write('rerun/green.xml', junit('rerun.Shop', 4));
      const first = await h.report(['submit', 'rerun/red.xml', ...name, '--json'], github(1));
      expect({ code: first.code, err: first.code ? first.err : '' }).toEqual({ code: 0, err: '' });
      const runId = JSON.parse(first.out).run.id;
      expect((await h.report(['complete', ...name], github(1))).code).toBe(0);
      expect((await h.get(`/api/v1/testruns/${runId}`)).body.status).toBe('completed');

      // "Re-run failed jobs": the same GITHUB_RUN_ID, attempt 2; the failing test passes now.
      const again = await h.report(['submit', 'rerun/green.xml', ...name, '--json'], github(2));
      expect({ code: again.code, err: again.code ? again.err : '' }).toEqual({
        code: 0,
        err: expect.any(String),
      });
      expect(again.err).toContain('run "re-run" reopened (GITHUB_RUN_ATTEMPT=2: a re-run job)');
      expect(JSON.parse(again.out).run).toMatchObject({ id: runId, status: 'in_progress' });
      const completed = await h.report(['complete', ...name, '--gate'], github(2));
      expect(completed.code).toBe(0);
      expect(completed.out).toContain('Gate: PASSED');
      const run = (await h.get(`/api/v1/testruns/${runId}`).expect(200)).body;
      expect(run).toMatchObject({ status: 'completed', counts: { total: 4, failed: 0 } });
      expect((await runsOf(project.id)).pagination.total).toBe(1);
    });

    it('reopens it with --reopen where the CI system does not say a job is a re-run', async () => {
      const other = await createProject(h.t, h.orgId);
      const name = ['--project', other.key, '--run-name', 'gitlab', '--pipeline-id', 'gl-1'];
      h.write('reopen/one.xml', junit('reopen.One', 2));
      h.write('reopen/two.xml', junit('reopen.Two', 3));
      expect((await h.report(['submit', 'reopen/one.xml', ...name, '--complete'])).code).toBe(0);
      const refused = await h.report(['submit', 'reopen/two.xml', ...name]);
      expect(refused.code).toBe(2);
      const reopened = await h.report(['submit', 'reopen/two.xml', ...name, '--reopen', '--json']);
      expect(reopened.err).toContain('run "gitlab" reopened (--reopen)');
      expect(JSON.parse(reopened.out).run.counts.total).toBe(5);
    });
  });

  describe('complete', () => {
    it('never creates a run: a run no job created is an error naming it', async () => {
      const empty = await createProject(h.t, h.orgId);
      const result = await h.report(
        ['complete', '--project', empty.key, '--run-name', 'nightly', '--pipeline-id', 'p-404'],
        {},
        counting,
      );
      expect(result.code).toBe(2);
      expect(result.err).toContain(
        `tm-report: error: No run "nightly" in project ${empty.key} for this pipeline (flag:p-404): no job of it created the run, so there is nothing to complete (tm-report complete never creates a run).`,
      );
      expect((await runsOf(empty.id)).pagination.total).toBe(0);
      expect(calls).toEqual(['GET /api/v1/projects', 'POST /api/v1/testruns']);
      // And the pipeline's own run is found, once a job created it.
      h.write('complete/one.xml', junit('complete.One', 2));
      const args = ['--project', empty.key, '--run-name', 'nightly', '--pipeline-id', 'p-404'];
      expect((await h.report(['submit', 'complete/one.xml', ...args])).code).toBe(0);
      const completed = await h.report(['complete', ...args, '--json']);
      expect(completed.code).toBe(0);
      expect(JSON.parse(completed.out).run).toMatchObject({
        status: 'completed',
        counts: { total: 2 },
      });
      expect((await runsOf(empty.id)).pagination.total).toBe(1);
    });

    it('names the run id it looked for', async () => {
      const id = '4f0c3c52-1d9e-4a7b-9c1f-2b3d4e5f6a7b';
      const result = await h.report(['complete', '--run-id', id]);
      expect(result.code).toBe(2);
      expect(result.err).toContain(`No run ${id} (--run-id) among the runs this API key sees.`);
    });

    it('with a build, finds the run in 2 calls and reads the gate’s rules in 1; --details reads the rest', async () => {
      const github = {
        GITHUB_ACTIONS: 'true',
        GITHUB_RUN_ID: `details-${project.id}`,
        GITHUB_RUN_NUMBER: '3',
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_SHA: SHA,
        GITHUB_REF_NAME: 'main',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'acme/web-shop',
      };
      const args = ['--project', project.id, '--run-name', 'details'];
      h.write('details/red.xml', junit('details.Shop', 3, [1]));
      const sent = await h.report(['submit', 'details/red.xml', ...args], github, counting);
      expect({ code: sent.code, err: sent.code ? sent.err : '' }).toEqual({ code: 0, err: '' });
      // The build's registration and one ingest into the build's run of that name.
      expect(calls).toEqual(['POST /api/v1/builds', 'POST /api/v1/results/ingest']);
      expect(sent.out).toMatch(
        /^Run "details" \([0-9a-f-]{36}\): 3 results of 1 reports stored by this job/,
      );
      calls = [];
      const completed = await h.report(['complete', ...args, '--gate'], github, counting);
      expect(completed.code).toBe(1);
      const runId = /^Run "details" \(([0-9a-f-]{36})\), completed/.exec(completed.out)?.[1];
      // The build's registration replayed, the build's runs, the completion, the gate's rules.
      expect(calls).toEqual([
        'POST /api/v1/builds',
        'GET /api/v1/testruns',
        `PATCH /api/v1/testruns/${runId}`,
        `GET /api/v1/testruns/${runId}/gate`,
      ]);
      expect(completed.out).toContain('Gate: FAILED (no_new_failures)');
      expect(completed.out).not.toContain('New failures (');
      const detailed = await h.report(['complete', ...args, '--gate', '--details'], github);
      expect(detailed.err).toContain('run "details" was completed already');
      expect(detailed.out).toMatch(
        /New failures \(1\):\n {2}- details\.Shop\.case1: expected 200 but got 500/,
      );
      expect(detailed.out).toContain('Failure groups (1):');
    });

    it('fails the gate of a run in which nothing ran, printing the failing rule (min_tests)', async () => {
      const args = ['--project', project.key, '--run-name', 'empty', '--pipeline-id', 'p-empty'];
      h.write('complete/empty.xml', '<testsuites><testsuite name="none" tests="0"/></testsuites>');
      expect((await h.report(['submit', 'complete/empty.xml', ...args])).code).toBe(0);
      const result = await h.report(['complete', ...args, '--gate']);
      expect(result.code).toBe(1);
      // The headline names the rule a pipeline's log shows first; the rule's line says why.
      expect(result.out).toContain('Gate: FAILED (min_tests)\n');
      expect(result.out).toMatch(/^ {2}FAIL min_tests: .+$/m);
    });
  });

  describe('the build', () => {
    const buildOf = async (out: string) => {
      const run = JSON.parse(out).run;
      expect(run.build_id).not.toBeNull();
      return (await h.get(`/api/v1/builds/${run.build_id}`).expect(200)).body;
    };

    it('is registered from --commit and --branch outside CI, without --build-name', async () => {
      h.write('build/one.xml', junit('build.One', 1));
      const result = await h.report([
        'submit',
        'build/one.xml',
        ...['--project', project.key, '--run-name', 'local', '--commit', SHA.toUpperCase()],
        ...['--branch', 'feature/checkout', '--json'],
      ]);
      expect({ code: result.code, err: result.code ? result.err : '' }).toEqual({
        code: 0,
        err: expect.any(String),
      });
      expect(await buildOf(result.out)).toMatchObject({
        commit_sha: SHA,
        branch: 'feature/checkout',
        project_id: project.id,
      });
    });

    it('takes --repo as git@host:org/repo.git, sent as the https address CI variables give', async () => {
      h.write('build/two.xml', junit('build.Two', 1));
      const result = await h.report([
        'submit',
        'build/two.xml',
        ...['--project', project.key, '--run-name', 'local repo'],
        ...['--repo', 'git@github.com:acme/web-shop.git', '--json'],
      ]);
      expect({ code: result.code, err: result.code ? result.err : '' }).toEqual({
        code: 0,
        err: expect.any(String),
      });
      expect(await buildOf(result.out)).toMatchObject({
        repo_url: 'https://github.com/acme/web-shop',
        name: 'web-shop',
      });
      const refused = await h.report(
        ['submit', 'build/two.xml', '--run-id', project.id, '--repo', 'file:///srv/repo'],
        {},
        counting,
      );
      expect(refused.code).toBe(2);
      expect(refused.err).toContain('--repo file:///srv/repo is not a repository address');
      expect(calls).toEqual([]);
    });
  });

  describe('the scopes of the key', () => {
    // No scope is probed up front (each probe cost every shard a call of the monthly quota):
    // the call that needs a scope names it, with what it is for, when the key lacks it.
    it('names the scope a call needs when the key lacks it, and what it is for', async () => {
      const scopes = ['testruns:create', 'results:submit', 'projects:read', 'builds:create'];
      const { key } = await createApiKey(h.t, h.orgId, scopes);
      const other = await createProject(h.t, h.orgId);
      h.write('scopes/one.xml', junit('scopes.One', 2));
      const args = ['submit', 'scopes/one.xml', '--project', other.key, '--run-name', 'scopes'];
      // Sending needs none of the scopes the key lacks.
      const sent = await h.report([...args, '--pipeline-id', 'scopes-1'], { TM_API_KEY: key });
      expect({ code: sent.code, err: sent.code ? sent.err : '' }).toEqual({ code: 0, err: '' });
      const completing = await h.report([...args, '--pipeline-id', 'scopes-2', '--complete'], {
        TM_API_KEY: key,
      });
      expect(completing.code).toBe(2);
      expect(completing.err).toContain(
        'tm-report: error: The API key lacks the scope testruns:update (to complete or reopen the run) that PATCH /api/v1/testruns/{id} needs (403 insufficient_scope)',
      );
      const reader = await createApiKey(h.t, h.orgId, ['projects:read', 'testruns:create']);
      const refused = await h.report([...args, '--pipeline-id', 'scopes-3'], {
        TM_API_KEY: reader.key,
      });
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(
        'The API key lacks the scope results:submit (to send the results) that POST /api/v1/results/ingest (scopes/one.xml) needs',
      );
    });
  });
});
