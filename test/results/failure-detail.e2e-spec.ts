import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

/** A lone half of a surrogate pair is a code point of category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
const SIGNATURE = /^[0-9a-f]{16}$/;

interface Result {
  id: string;
  test_case_id: string;
  status: string;
  message: string | null;
  failure_type: string | null;
  stack_trace: string | null;
  signature: string | null;
}

describe('failure detail on results (CONTRACT §12)', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await startApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function setup() {
    const tenant = await createTenant(t, RUN_SCOPES);
    const project = await createProject(t, tenant.org.id);
    return { ...tenant, project };
  }
  const resultsOf = async (key: string, runId: string): Promise<Result[]> =>
    (await t.http.get(`/api/v1/testruns/${runId}/results?limit=100`).set(withKey(key)).expect(200))
      .body.data;

  describe('JSON result items', () => {
    it('stores failure_type and stack_trace, and signs failed and blocked results only', async () => {
      const { key, project } = await setup();
      const run = await createRun(t, key, project.id);
      const res = await submitResults(t, key, run.id, [
        {
          automation_id: 'd.failed',
          status: 'failed',
          message: 'expected 200 but was 500',
          failure_type: 'AssertionError',
          stack_trace: 'at d.failed(D.java:12)\n\tat main(Main.java:3)',
        },
        { automation_id: 'd.blocked', status: 'blocked' },
        { automation_id: 'd.passed', status: 'passed', failure_type: 'Flaky', stack_trace: 's' },
        { automation_id: 'd.skipped', status: 'skipped', message: 'later' },
      ]);
      expect(res.status).toBe(201);
      const [failed, blocked, passed, skipped] = res.body.data as Result[];
      expect(failed).toEqual({
        id: expect.any(String),
        test_run_id: run.id,
        test_case_id: expect.any(String),
        status: 'failed',
        duration_ms: null,
        message: 'expected 200 but was 500',
        defects: [],
        retries: 0,
        flaky: false,
        executed_at: null,
        created_at: expect.any(String),
        failure_type: 'AssertionError',
        stack_trace: 'at d.failed(D.java:12)\n\tat main(Main.java:3)',
        signature: expect.stringMatching(SIGNATURE),
        configuration: null,
        attempts: [],
      });
      // A failure without type or message has a signature too: that of "no detail".
      expect(blocked).toMatchObject({
        failure_type: null,
        stack_trace: null,
        signature: expect.stringMatching(SIGNATURE),
      });
      expect(blocked.signature).not.toBe(failed.signature);
      expect(passed).toMatchObject({ failure_type: 'Flaky', stack_trace: 's', signature: null });
      expect(skipped).toMatchObject({ failure_type: null, stack_trace: null, signature: null });

      // What the listing and the case's history show is what the submission answered, in
      // the same key order.
      const listed = await resultsOf(key, run.id);
      // The listing adds the result's attachments (CONTRACT §15), none here.
      const { attachments, ...listedFailed } = listed.find(
        (r) => r.id === failed.id,
      ) as unknown as Record<string, unknown>;
      expect(attachments).toEqual([]);
      expect(listedFailed).toEqual(failed);
      expect(Object.keys(listedFailed)).toEqual(Object.keys(failed));
      const history = await t.http
        .get(`/api/v1/testcases/${failed.test_case_id}/results`)
        .set(withKey(key))
        .expect(200);
      const { test_run_name, branch, commit_sha, build_id, build_name, build_number, ...asResult } =
        history.body.data[0];
      expect({ test_run_name, branch, commit_sha, build_id, build_name, build_number }).toEqual({
        test_run_name: 'Run',
        branch: null,
        commit_sha: null,
        build_id: null,
        build_name: null,
        build_number: null,
      });
      expect(asResult).toEqual(failed);
      expect(Object.keys(asResult)).toEqual(Object.keys(failed));

      const [row] = await db.query(
        'SELECT failure_type, stack_trace, signature FROM test_result WHERE id = $1',
        [failed.id],
      );
      expect(row).toEqual({
        failure_type: failed.failure_type,
        stack_trace: failed.stack_trace,
        signature: failed.signature,
      });
      // The testcase.failed.v1 event carries the result as the API shows it.
      const [event] = await db.query(
        `SELECT data FROM domain_event
          WHERE type = 'testcase.failed.v1' AND data->>'id' = $1`,
        [failed.id],
      );
      expect(event.data).toEqual(failed);
    });

    it('gives the same error in two runs the same signature, whatever its numbers and ids', async () => {
      const { key, project } = await setup();
      const failure = (message: string, failureType = 'TimeoutError') => ({
        automation_id: 'sig.case',
        status: 'failed',
        message,
        failure_type: failureType,
      });
      const first = await createRun(t, key, project.id);
      const second = await createRun(t, key, project.id);
      const [a] = (
        await submitResults(t, key, first.id, [
          failure('Timed out after 30000ms waiting for order 7f3e9a12 at 2026-11-02T10:00:01Z'),
        ]).expect(201)
      ).body.data as Result[];
      const [b, other, otherType] = (
        await submitResults(t, key, second.id, [
          failure('Timed out after 45000ms waiting for order 0a9c4e77 at 2026-11-03T22:13:59Z'),
          { ...failure('Connection refused'), automation_id: 'sig.other' },
          {
            ...failure('Timed out after 30000ms waiting for order 7f3e9a12', 'AssertionError'),
            automation_id: 'sig.type',
          },
        ]).expect(201)
      ).body.data as Result[];
      expect(a.signature).toMatch(SIGNATURE);
      expect(b.signature).toBe(a.signature);
      expect(other.signature).not.toBe(a.signature);
      expect(otherType.signature).not.toBe(a.signature);
    });

    it('refuses a failure_type over 1,000 characters naming it, storing nothing', async () => {
      const { key, project } = await setup();
      const run = await createRun(t, key, project.id);
      const res = await submitResults(t, key, run.id, [
        { automation_id: 'a', status: 'failed', failure_type: 'x'.repeat(1000) },
        { automation_id: 'b', status: 'failed', failure_type: 'x'.repeat(1001) },
        { automation_id: 'c', status: 'failed', stack_trace: 42 },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.details.field).toBe('results[1].failure_type');
      expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
        'results[1].failure_type',
        'results[2].stack_trace',
      ]);
      expect(await resultsOf(key, run.id)).toEqual([]);
    });

    it('cuts a stack trace over 65,536 characters between code points', async () => {
      const { key, project } = await setup();
      const run = await createRun(t, key, project.id);
      // 70,000 characters, an emoji across the 65,536th.
      const trace = `${'a'.repeat(65_535)}\u{1F600}${'b'.repeat(4_463)}`;
      const res = await submitResults(t, key, run.id, [
        { automation_id: 'long', status: 'failed', stack_trace: trace },
      ]).expect(201);
      expect(res.body.data[0].stack_trace).toBe('a'.repeat(65_535));
      const [stored] = await resultsOf(key, run.id);
      expect(stored.stack_trace).toBe('a'.repeat(65_535));
      expect(stored.stack_trace).not.toMatch(LONE_SURROGATE);
    });
  });

  describe('JUnit XML', () => {
    const ingest = (key: string, projectId: string, xml: string) =>
      t.http
        .post(`/api/v1/results/ingest?project_id=${projectId}`)
        .set(withKey(key))
        .set('Content-Type', 'application/xml')
        .send(xml);

    it('takes the failure type from the type attribute and the trace from the text', async () => {
      const { key, project } = await setup();
      const xml = `<?xml version="1.0" encoding="UTF-8"?>
        <testsuite name="s">
          <testcase classname="j.T" name="a_typed"><failure type="java.lang.AssertionError" message="expected:&lt;1&gt; but was:&lt;2&gt;">java.lang.AssertionError: expected:&lt;1&gt; but was:&lt;2&gt;
\tat j.T.a_typed(T.java:10)</failure></testcase>
          <testcase classname="j.T" name="b_text"><failure type="AssertionError">boom at line 7</failure></testcase>
          <testcase classname="j.T" name="c_error"><error type="java.lang.NullPointerException" message="npe"><![CDATA[at j.T.c_error(T.java:20)]]></error></testcase>
          <testcase classname="j.T" name="d_passed"/>
          <testcase classname="j.T" name="e_skipped"><skipped message="not now"/></testcase>
        </testsuite>`;
      const res = await ingest(key, project.id, xml).expect(201);
      const results = await resultsOf(key, res.body.test_run_id);
      const byCase = new Map<string, Result>();
      const cases = await t.http
        .get(`/api/v1/projects/${project.id}/testcases?limit=100`)
        .set(withKey(key))
        .expect(200);
      for (const c of cases.body.data as Array<{ id: string; title: string }>) {
        byCase.set(c.title, results.find((r) => r.test_case_id === c.id) as Result);
      }
      expect(byCase.get('a_typed')).toMatchObject({
        status: 'failed',
        failure_type: 'java.lang.AssertionError',
        message: 'expected:<1> but was:<2>',
        stack_trace:
          'java.lang.AssertionError: expected:<1> but was:<2>\n\tat j.T.a_typed(T.java:10)',
        signature: expect.stringMatching(SIGNATURE),
      });
      // Without a message attribute the text is the message, and there is no trace.
      expect(byCase.get('b_text')).toMatchObject({
        failure_type: 'AssertionError',
        message: 'boom at line 7',
        stack_trace: null,
        signature: expect.stringMatching(SIGNATURE),
      });
      expect(byCase.get('c_error')).toMatchObject({
        status: 'failed',
        failure_type: 'java.lang.NullPointerException',
        message: 'npe',
        stack_trace: 'at j.T.c_error(T.java:20)',
      });
      expect(byCase.get('d_passed')).toMatchObject({
        failure_type: null,
        stack_trace: null,
        signature: null,
      });
      expect(byCase.get('e_skipped')).toMatchObject({
        message: 'not now',
        failure_type: null,
        stack_trace: null,
        signature: null,
      });
    });

    it('signs the same failure in two reports alike, and as the JSON items would', async () => {
      const { key, project } = await setup();
      const report = (ms: number, line: number) =>
        `<testsuite><testcase classname="j.S" name="waits"><failure type="TimeoutError" message="waited ${ms}ms at Waits.java:${line}">trace ${ms}</failure></testcase></testsuite>`;
      const first = await ingest(key, project.id, report(3000, 41)).expect(201);
      const second = await ingest(key, project.id, report(5000, 42)).expect(201);
      const [a] = await resultsOf(key, first.body.test_run_id);
      const [b] = await resultsOf(key, second.body.test_run_id);
      expect(a.signature).toMatch(SIGNATURE);
      expect(b.signature).toBe(a.signature);
      const run = await createRun(t, key, project.id);
      const [json] = (
        await submitResults(t, key, run.id, [
          {
            automation_id: 'j.S.waits',
            status: 'failed',
            failure_type: 'TimeoutError',
            message: 'waited 10ms at Waits.java:1',
          },
        ]).expect(201)
      ).body.data as Result[];
      expect(json.signature).toBe(a.signature);
    });

    it('cuts a 70,000-character trace to 65,536 characters, never inside a surrogate pair', async () => {
      const { key, project } = await setup();
      const trace = `${'a'.repeat(65_535)}\u{1F600}${'b'.repeat(4_463)}`;
      const whole = `${'c'.repeat(65_536)}${'d'.repeat(4_464)}`;
      const xml = `<testsuite>
        <testcase name="pair"><failure type="E" message="m">${trace}</failure></testcase>
        <testcase name="plain"><failure type="E" message="m">${whole}</failure></testcase>
      </testsuite>`;
      const res = await ingest(key, project.id, xml).expect(201);
      const traces = (await resultsOf(key, res.body.test_run_id))
        .map((r) => r.stack_trace as string)
        .sort();
      expect(traces).toEqual(['a'.repeat(65_535), 'c'.repeat(65_536)]);
      expect(traces[0]).not.toMatch(LONE_SURROGATE);
    });
  });
});
