import { OPERATOR, organizationCaller } from '../../src/common/caller.js';
import { ApiError } from '../../src/common/errors/api-error.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { OrganizationsService } from '../../src/organizations/organizations.service.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ProjectsService } from '../../src/projects/projects.service.js';
import { parseIngest, parseSubmitResults } from '../../src/results/result-commands.js';
import { CreateTestRun } from '../../src/test-run-lifecycle/create-test-run.usecase.js';
import { IngestResults } from '../../src/test-run-lifecycle/ingest-results.usecase.js';
import { SubmitResults } from '../../src/test-run-lifecycle/submit-results.usecase.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { TransitionTestRun } from '../../src/test-run-lifecycle/transition-test-run.usecase.js';
import type { TestRunStatus } from '../../src/testruns/entities/test-run.entity.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';
const ZERO = {
  total: 0,
  passed: 0,
  failed: 0,
  blocked: 0,
  skipped: 0,
  retest: 0,
  untested: 0,
  flaky: 0,
};

// A run's write path, use case by use case, on the real database without HTTP: the request
// bodies are parsed by the parsers the controllers use, so a test reads like the request it
// stands for. What only HTTP shows (status codes, scopes, body limits) is in the e2e files.
describe('a run’s write path (service tier)', () => {
  let s: ServiceTier;
  beforeAll(async () => {
    s = await startServiceTier([OrganizationsModule, ProjectsModule, TestRunLifecycleModule]);
  });
  afterAll(() => s.close());

  let counter = 0;
  async function project() {
    const org = await s.get(OrganizationsService).create({ name: `Org ${++counter}`, plan: 'pro' });
    const created = await s
      .get(ProjectsService)
      .create(org.id, { name: 'Web', key: `WEB${counter}` });
    return { organizationId: org.id, projectId: created.id };
  }
  async function run(testCaseIds?: string[]) {
    const { organizationId, projectId } = await project();
    const created = await s.get(CreateTestRun).execute({
      caller: organizationCaller(organizationId),
      source: 'api',
      run: { project_id: projectId, name: 'Nightly', test_case_ids: testCaseIds },
    });
    return { organizationId, projectId, runId: created.id };
  }
  const submit = (
    r: { organizationId: string; runId: string },
    results: unknown[],
    complete?: boolean,
  ) =>
    s.get(SubmitResults).execute({
      caller: organizationCaller(r.organizationId),
      testRunId: r.runId,
      ...parseSubmitResults(complete === undefined ? { results } : { results, complete }),
    });
  const transition = (r: { organizationId: string; runId: string }, status: TestRunStatus) =>
    s
      .get(TransitionTestRun)
      .execute({ caller: organizationCaller(r.organizationId), testRunId: r.runId, status });
  /** The refusal `work` threw, as the client would read it. */
  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
    return { status: error.getStatus(), ...error.toEnvelope() };
  };

  const one = async (text: string, params: unknown[]) => (await s.db.query(text, params))[0];
  const stored = async (runId: string) =>
    (await one('SELECT count(*)::int AS n FROM test_result WHERE test_run_id = $1', [runId])).n;
  const casesOf = async (projectId: string) =>
    (await one('SELECT count(*)::int AS n FROM test_case WHERE project_id = $1', [projectId])).n;
  const runRow = (runId: string) =>
    one(
      `SELECT status, submitted_at, completed_at, total, passed, failed, blocked, skipped, retest,
              untested, flaky FROM test_run WHERE id = $1`,
      [runId],
    );
  const counts = async (runId: string) => {
    const { total, passed, failed, blocked, skipped, retest, untested, flaky } =
      await runRow(runId);
    return { total, passed, failed, blocked, skipped, retest, untested, flaky };
  };
  const eventsOf = async (organizationId: string) =>
    (
      await s.db.query(
        'SELECT type FROM domain_event WHERE organization_id = $1 ORDER BY created_at, type',
        [organizationId],
      )
    ).map((e: { type: string }) => e.type);

  describe('SubmitResults', () => {
    it('stores a batch, creating a case for each new automation id once, with exact counts', async () => {
      const r = await run();
      const answer = await submit(r, [
        { automation_id: 'a', status: 'passed' },
        { automation_id: 'b', status: 'failed', message: 'boom' },
        { automation_id: 'c', status: 'skipped' },
        { automation_id: 'a', status: 'blocked' },
      ]);
      expect(answer.accepted).toBe(4);
      expect(answer.created_test_cases).toBe(3);
      expect(answer.data.map((result) => result.status)).toEqual([
        'passed',
        'failed',
        'skipped',
        'blocked',
      ]);
      expect(await stored(r.runId)).toBe(4);
      expect(await casesOf(r.projectId)).toBe(3);
      // The later of two results of one case in a batch is its current one.
      expect(await counts(r.runId)).toEqual({
        ...ZERO,
        total: 3,
        failed: 1,
        skipped: 1,
        blocked: 1,
      });
    });

    it('makes a later result the current one, keeping the earlier one in the history', async () => {
      const r = await run();
      await submit(r, [
        { automation_id: 'x', status: 'failed' },
        { automation_id: 'y', status: 'passed' },
      ]);
      const later = await submit(r, [{ automation_id: 'x', status: 'passed', retries: 1 }]);
      expect(later.created_test_cases).toBe(0);
      expect(await counts(r.runId)).toEqual({ ...ZERO, total: 2, passed: 2, flaky: 1 });
      expect(await stored(r.runId)).toBe(3);
      const current = await s.db.query(
        `SELECT tc.automation_id, r.status FROM test_run_case rc
           JOIN test_result r ON r.id = rc.result_id
           JOIN test_case tc ON tc.id = rc.test_case_id
          WHERE rc.test_run_id = $1 ORDER BY tc.automation_id`,
        [r.runId],
      );
      expect(current).toEqual([
        { automation_id: 'x', status: 'passed' },
        { automation_id: 'y', status: 'passed' },
      ]);
    });

    it('keeps every count exact over many batches that move cases between statuses', async () => {
      const r = await run();
      const statuses = ['passed', 'failed', 'blocked', 'skipped', 'retest'];
      const expected = new Map<string, string>();
      for (let batch = 0; batch < 5; batch++) {
        const items = Array.from({ length: 20 }, (_, i) => {
          const status = statuses[(i + batch * 3) % statuses.length];
          expected.set(`case.${(i * 7 + batch) % 30}`, status);
          return { automation_id: `case.${(i * 7 + batch) % 30}`, status };
        });
        await submit(r, items);
      }
      const want = { ...ZERO, total: expected.size };
      for (const status of expected.values()) want[status as keyof typeof ZERO]++;
      expect(await counts(r.runId)).toEqual(want);
      expect(await stored(r.runId)).toBe(100);
    });

    it('counts a case flaky while its current result passed after retries, and only then', async () => {
      const r = await run();
      await submit(r, [
        { automation_id: 'a', status: 'passed', retries: 2 },
        { automation_id: 'b', status: 'failed', retries: 3 },
      ]);
      expect(await counts(r.runId)).toMatchObject({ passed: 1, failed: 1, flaky: 1 });
      await submit(r, [{ automation_id: 'a', status: 'passed' }]);
      expect(await counts(r.runId)).toMatchObject({ passed: 1, failed: 1, flaky: 0 });
      await submit(r, [{ automation_id: 'b', status: 'passed', retries: 1 }]);
      expect(await counts(r.runId)).toMatchObject({ passed: 2, failed: 0, flaky: 1 });
    });

    // Moved from results.e2e-spec.ts ('rejects an unknown test case id'): the refusal is the
    // write path's, after the body parsed.
    it('refuses the whole batch for an unknown test case id, naming it, storing nothing', async () => {
      const r = await run();
      const before = await casesOf(r.projectId);
      expect(
        await refusal(
          submit(r, [
            { automation_id: 'ok', status: 'passed' },
            { test_case_id: UNKNOWN_ID, status: 'passed' },
          ]),
        ),
      ).toMatchObject({
        status: 400,
        error: 'invalid_request',
        details: { field: 'results[1].test_case_id' },
      });
      expect(await stored(r.runId)).toBe(0);
      expect(await casesOf(r.projectId)).toBe(before);
      expect(await counts(r.runId)).toEqual(ZERO);
      // Only the run's creation: no testcase.failed.v1 of the refused batch.
      expect(await eventsOf(r.organizationId)).toEqual(['testrun.created.v1']);
    });

    it('refuses a case of another organization’s project as unknown, storing nothing', async () => {
      const theirs = await run();
      await submit(theirs, [{ automation_id: 'secret', status: 'passed' }]);
      const [theirCase] = await s.db.query('SELECT id FROM test_case WHERE project_id = $1', [
        theirs.projectId,
      ]);
      const mine = await run();
      expect(
        await refusal(submit(mine, [{ test_case_id: theirCase.id, status: 'failed' }])),
      ).toMatchObject({ status: 400, details: { field: 'results[0].test_case_id' } });
      expect(await stored(mine.runId)).toBe(0);
      expect(await counts(theirs.runId)).toMatchObject({ total: 1, passed: 1 });
    });

    it('answers 404 for a run of another organization, and writes nothing into it', async () => {
      const theirs = await run();
      const mine = await project();
      expect(
        await refusal(
          submit({ organizationId: mine.organizationId, runId: theirs.runId }, [
            { automation_id: 'a', status: 'passed' },
          ]),
        ),
      ).toMatchObject({ status: 404, error: 'not_found' });
      expect(await stored(theirs.runId)).toBe(0);
      expect(await casesOf(theirs.projectId)).toBe(0);
    });

    it('lets the operator write into any organization’s run, in that organization, and 404s an unknown one', async () => {
      const theirs = await run();
      const written = await s.get(SubmitResults).execute({
        caller: OPERATOR,
        testRunId: theirs.runId,
        ...parseSubmitResults({ results: [{ automation_id: 'op', status: 'passed' }] }),
      });
      expect(written.accepted).toBe(1);
      expect(await counts(theirs.runId)).toMatchObject({ total: 1, passed: 1 });
      expect(
        await refusal(
          s.get(TransitionTestRun).execute({
            caller: OPERATOR,
            testRunId: '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c',
            status: 'completed',
          }),
        ),
      ).toMatchObject({ status: 404, error: 'not_found' });
    });

    it('records one testcase.failed.v1 per failed result, in the batch’s transaction', async () => {
      const r = await run();
      await submit(r, [
        { automation_id: 'a', status: 'failed' },
        { automation_id: 'b', status: 'passed' },
        { automation_id: 'c', status: 'failed' },
      ]);
      expect(await eventsOf(r.organizationId)).toEqual([
        'testrun.created.v1',
        'testcase.failed.v1',
        'testcase.failed.v1',
      ]);
    });

    it('turns the pre-populated untested results of a run’s cases into the results submitted', async () => {
      // The project's cases, made by an earlier run's results.
      const earlier = await run();
      await submit(earlier, [
        { automation_id: 'one', status: 'failed' },
        { automation_id: 'two', status: 'failed' },
      ]);
      const cases = await s.db.query(
        'SELECT id FROM test_case WHERE project_id = $1 ORDER BY automation_id',
        [earlier.projectId],
      );
      const created = await s.get(CreateTestRun).execute({
        caller: organizationCaller(earlier.organizationId),
        source: 'api',
        run: {
          project_id: earlier.projectId,
          name: 'Planned',
          test_case_ids: cases.map((c: { id: string }) => c.id),
        },
      });
      expect(created.counts).toEqual({ ...ZERO, total: 2, untested: 2 });
      const r = { organizationId: earlier.organizationId, runId: created.id };
      const answer = await submit(r, [{ automation_id: 'one', status: 'passed' }]);
      expect(answer.created_test_cases).toBe(0);
      expect(await counts(r.runId)).toEqual({ ...ZERO, total: 2, passed: 1, untested: 1 });
    });

    // Moved from results.e2e-spec.ts ('completes the run with "complete": true').
    it('completes the run with complete: true, with its event', async () => {
      const r = await run();
      await submit(r, [{ automation_id: 'a', status: 'passed' }], true);
      expect(await runRow(r.runId)).toMatchObject({
        status: 'completed',
        submitted_at: null,
        completed_at: expect.any(Date),
        total: 1,
        passed: 1,
      });
      expect(await eventsOf(r.organizationId)).toEqual([
        'testrun.created.v1',
        'testrun.completed.v1',
      ]);
    });

    it('takes results into a submitted run, and refuses them into a completed one, changing nothing', async () => {
      const r = await run();
      await transition(r, 'submitted');
      await submit(r, [{ automation_id: 'a', status: 'passed' }]);
      await transition(r, 'completed');
      const completed = await runRow(r.runId);
      expect(await refusal(submit(r, [{ automation_id: 'a', status: 'failed' }]))).toEqual({
        status: 409,
        error: 'conflict',
        message: expect.any(String),
        details: { reason: 'run_completed' },
      });
      expect(await runRow(r.runId)).toEqual(completed);
      expect(await stored(r.runId)).toBe(1);
    });
  });

  describe('TransitionTestRun', () => {
    // Moved from testruns.e2e-spec.ts ('moves in_progress → completed directly').
    it('moves in_progress → completed directly, never having been submitted', async () => {
      const r = await run();
      const moved = await transition(r, 'completed');
      expect(moved).toMatchObject({
        status: 'completed',
        submitted_at: null,
        completed_at: expect.stringMatching(/Z$/),
      });
      expect(await runRow(r.runId)).toMatchObject({ status: 'completed', submitted_at: null });
      expect(await eventsOf(r.organizationId)).toEqual([
        'testrun.created.v1',
        'testrun.completed.v1',
      ]);
    });

    it('refuses a move to the same status with 409, leaving the run and the outbox as they were', async () => {
      const r = await run();
      expect(await refusal(transition(r, 'in_progress'))).toMatchObject({
        status: 409,
        details: { reason: 'invalid_transition' },
      });
      await transition(r, 'submitted');
      const submitted = await runRow(r.runId);
      for (const status of ['submitted'] as const) {
        expect(await refusal(transition(r, status))).toMatchObject({
          status: 409,
          details: { reason: 'invalid_transition' },
        });
      }
      expect(await runRow(r.runId)).toEqual(submitted);
      expect(await eventsOf(r.organizationId)).toEqual([
        'testrun.created.v1',
        'testrun.submitted.v1',
      ]);
    });
  });

  describe('reopening', () => {
    it('takes results into a reopened run and completes it again with complete: true', async () => {
      const r = await run();
      await submit(r, [{ automation_id: 'a', status: 'failed' }], true);
      const completed = await runRow(r.runId);
      const reopened = await transition(r, 'in_progress');
      expect(reopened).toMatchObject({ status: 'in_progress', completed_at: null });
      expect(await runRow(r.runId)).toMatchObject({
        status: 'in_progress',
        completed_at: null,
        submitted_at: null,
      });
      await submit(r, [{ automation_id: 'a', status: 'passed' }], true);
      const again = await runRow(r.runId);
      expect(again).toMatchObject({ status: 'completed', failed: 0, passed: 1, total: 1 });
      expect(again.completed_at.getTime()).toBeGreaterThanOrEqual(completed.completed_at.getTime());
      expect(await eventsOf(r.organizationId)).toEqual([
        'testrun.created.v1',
        'testcase.failed.v1',
        'testrun.completed.v1',
        'testrun.reopened.v1',
        'testrun.completed.v1',
      ]);
    });

    it('keeps the gate verdict of the last completion on the run, null before any', async () => {
      const r = await run();
      const gateOf = async () =>
        one('SELECT gate_passed, gate_evaluated_at FROM test_run WHERE id = $1', [r.runId]);
      expect(await gateOf()).toEqual({ gate_passed: null, gate_evaluated_at: null });
      await transition(r, 'submitted');
      // Judged for the submitted event, but kept only at a completion.
      expect(await gateOf()).toEqual({ gate_passed: null, gate_evaluated_at: null });
      // Nothing ran: min_tests fails it.
      const first = await transition(r, 'completed');
      expect(first.gate).toEqual({ passed: false, evaluated_at: expect.any(String) });
      expect(await gateOf()).toEqual({
        gate_passed: false,
        gate_evaluated_at: new Date(first.gate?.evaluated_at as string),
      });
      await transition(r, 'in_progress');
      expect(await gateOf()).toMatchObject({ gate_passed: false });
      await submit(r, [{ automation_id: 'a', status: 'passed' }]);
      const second = await transition(r, 'completed');
      expect(second.gate?.passed).toBe(true);
      expect(await gateOf()).toEqual({
        gate_passed: true,
        gate_evaluated_at: new Date(second.gate?.evaluated_at as string),
      });
    });
  });

  describe('IngestResults', () => {
    const ingest = (organizationId: string, body: object) =>
      s.get(IngestResults).execute({
        organizationId,
        ingest: parseIngest('application/json', body, {}),
      });

    it('opens a new run for its results when no run is named', async () => {
      const { organizationId, projectId } = await project();
      const answer = await ingest(organizationId, {
        project_id: projectId,
        run_name: 'From CI',
        results: [
          { automation_id: 'a', status: 'passed' },
          { automation_id: 'b', status: 'failed' },
        ],
      });
      expect(answer).toMatchObject({ accepted: 2, created_test_cases: 2 });
      expect(await runRow(answer.test_run_id)).toMatchObject({
        status: 'in_progress',
        total: 2,
        passed: 1,
        failed: 1,
      });
    });

    it('refuses a run of another organization or of another project as a field, storing nothing', async () => {
      const theirs = await run();
      const mine = await run();
      const other = await s
        .get(ProjectsService)
        .create(mine.organizationId, { name: 'Other', key: `OTHER${++counter}` });
      // The parser takes its items over: each call gets a list of its own.
      const results = () => [{ automation_id: 'a', status: 'passed' }];
      expect(
        await refusal(
          ingest(mine.organizationId, { test_run_id: theirs.runId, results: results() }),
        ),
      ).toMatchObject({ status: 400, details: { field: 'test_run_id' } });
      expect(
        await refusal(
          ingest(mine.organizationId, {
            test_run_id: mine.runId,
            project_id: other.id,
            results: results(),
          }),
        ),
      ).toMatchObject({ status: 400, details: { field: 'project_id' } });
      expect(await stored(theirs.runId)).toBe(0);
      expect(await stored(mine.runId)).toBe(0);
      expect(await casesOf(mine.projectId)).toBe(0);
    });
  });
});
