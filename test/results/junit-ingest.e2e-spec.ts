import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createApiKey, createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { ROUND_SIZE } from '../../src/results/rounds.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

const FIXTURES = 'test/fixtures/junit';
const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

interface Expected {
  testcases: number;
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  retries_total: number;
  automation_ids_sample: string[];
}

const expected: Record<string, Expected> = JSON.parse(
  readFileSync(`${FIXTURES}/expected.json`, 'utf8'),
);

describe('POST /results/ingest (JUnit XML)', () => {
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

  const runsOf = async (organizationId: string): Promise<number> =>
    (
      await db.query('SELECT count(*)::int AS n FROM test_run WHERE organization_id = $1', [
        organizationId,
      ])
    )[0].n;
  const storedIn = async (runId: string): Promise<number> =>
    (
      await db.query('SELECT count(*)::int AS n FROM test_result WHERE test_run_id = $1', [runId])
    )[0].n;

  const postXml = (key: string, query: string, xml: string, type = 'application/xml') =>
    t.http
      .post(`/api/v1/results/ingest?${query}`)
      .set(withKey(key))
      .set('Content-Type', type)
      .send(xml);

  it.each(Object.entries(expected))(
    'imports %s with the counts the report holds',
    async (file, counts) => {
      const { key, project } = await setup();
      const xml = readFileSync(`${FIXTURES}/${file}`, 'utf8');
      const res = await postXml(
        key,
        `project_id=${project.id}&run_name=${encodeURIComponent(file)}`,
        xml,
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        test_run_id: expect.any(String),
        accepted: counts.testcases,
        created_test_cases: expect.any(Number),
      });

      const stored: Array<{ status: string; flaky: boolean; retries: number }> = await db.query(
        'SELECT status, flaky, retries FROM test_result WHERE test_run_id = $1',
        [res.body.test_run_id],
      );
      const count = (status: string) => stored.filter((r) => r.status === status).length;
      expect({
        testcases: stored.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        flaky: stored.filter((r) => r.flaky).length,
        retries_total: stored.reduce((sum, r) => sum + r.retries, 0),
      }).toEqual({
        testcases: counts.testcases,
        passed: counts.passed,
        failed: counts.failed,
        skipped: counts.skipped,
        flaky: counts.flaky,
        retries_total: counts.retries_total,
      });

      const run = (await t.http.get(`/api/v1/testruns/${res.body.test_run_id}`).set(withKey(key)))
        .body;
      expect(run.name).toBe(file);
      expect(run.counts.total).toBe(res.body.created_test_cases);
      for (const automationId of counts.automation_ids_sample) {
        const found = await t.http
          .get(
            `/api/v1/projects/${project.id}/testcases?automation_id=${encodeURIComponent(automationId)}`,
          )
          .set(withKey(key));
        expect({ automationId, found: found.body.data.length }).toEqual({ automationId, found: 1 });
      }
    },
  );

  it('keeps the failure message, the duration, and makes name the title and classname the section', async () => {
    const { key, project } = await setup();
    const xml = readFileSync(`${FIXTURES}/surefire.xml`, 'utf8');
    const res = await postXml(key, `project_id=${project.id}`, xml, 'text/xml; charset=utf-8');
    expect(res.status).toBe(201);
    const rows: Array<{ duration_ms: number | null }> = await db.query(
      'SELECT duration_ms FROM test_result WHERE test_run_id = $1 AND duration_ms = 1234567',
      [res.body.test_run_id],
    );
    expect(rows).toHaveLength(1);
    const failed = await db.query(
      `SELECT c.title, c.section, c.automation_id, r.message FROM test_result r
         JOIN test_case c ON c.id = r.test_case_id
        WHERE r.test_run_id = $1 AND r.status = 'failed' ORDER BY c.title`,
      [res.body.test_run_id],
    );
    // Entities decoded; the message attribute wins over the element's stack trace.
    expect(failed).toEqual([
      {
        title: 'appliesDiscount',
        section: 'com.example.cart.CartTest$Totals',
        automation_id: 'com.example.cart.CartTest$Totals.appliesDiscount',
        message: 'expected: <total > 0 & "discount" applied> but was: <-5>',
      },
      {
        title: 'loadsSavedCart',
        section: 'com.example.cart.CartTest$Checkout',
        automation_id: 'com.example.cart.CartTest$Checkout.loadsSavedCart',
        message: 'db unavailable at <localhost:5432>',
      },
    ]);
  });

  it('stores and returns retries and flaky per result, from Surefire reruns and flaky runs', async () => {
    const { key, project } = await setup();
    const xml = `<testsuite>
      <testcase classname="F" name="flakyPass"><flakyFailure message="1"/><flakyError message="2"/></testcase>
      <testcase classname="F" name="rerunFail"><failure message="x"/><rerunFailure message="r1"/><rerunError message="r2"/></testcase>
      <testcase classname="F" name="flakyThenFail"><failure message="still"/><flakyFailure message="once"/></testcase>
      <testcase classname="F" name="skippedAndFailed"><skipped message="later"/><failure message="broke"/></testcase>
      <testcase classname="F" name="plain"/>
      <testcase name="noClassname" time="0.25"/>
    </testsuite>`;
    const res = await postXml(key, `project_id=${project.id}`, xml);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      test_run_id: expect.any(String),
      accepted: 6,
      created_test_cases: 6,
    });
    const runId = res.body.test_run_id as string;
    const listed = await t.http
      .get(`/api/v1/testruns/${runId}/results?limit=100`)
      .set(withKey(key))
      .expect(200);
    const cases = await t.http
      .get(`/api/v1/projects/${project.id}/testcases?limit=100`)
      .set(withKey(key))
      .expect(200);
    const byCase = new Map<
      string,
      { automation_id: string; title: string; section: string | null }
    >(cases.body.data.map((c: { id: string }) => [c.id, c]));
    const results = (
      listed.body.data as Array<{
        test_case_id: string;
        status: string;
        retries: number;
        flaky: boolean;
        duration_ms: number | null;
        message: string | null;
      }>
    )
      .map((r) => {
        const c = byCase.get(r.test_case_id);
        return {
          automation_id: c?.automation_id,
          title: c?.title,
          section: c?.section,
          status: r.status,
          retries: r.retries,
          flaky: r.flaky,
          duration_ms: r.duration_ms,
        };
      })
      .sort((a, b) => String(a.automation_id).localeCompare(String(b.automation_id)));
    const item = (name: string, status: string, retries: number, flaky: boolean) => ({
      automation_id: `F.${name}`,
      title: name,
      section: 'F',
      status,
      retries,
      flaky,
      duration_ms: null,
    });
    expect(results).toEqual([
      item('flakyPass', 'passed', 2, true),
      // A flaky attempt before a final failure is a retry, and a failed result is never flaky.
      item('flakyThenFail', 'failed', 1, false),
      item('plain', 'passed', 0, false),
      item('rerunFail', 'failed', 2, false),
      // Failure wins over skipped, whatever their order.
      item('skippedAndFailed', 'failed', 0, false),
      // Without classname: the automation id and title are the name, and there is no section.
      {
        automation_id: 'noClassname',
        title: 'noClassname',
        section: null,
        status: 'passed',
        retries: 0,
        flaky: false,
        duration_ms: 250,
      },
    ]);
    const run = await t.http.get(`/api/v1/testruns/${runId}`).set(withKey(key)).expect(200);
    expect(run.body.counts).toEqual({
      total: 6,
      passed: 3,
      failed: 3,
      blocked: 0,
      skipped: 0,
      retest: 0,
      untested: 0,
      flaky: 1,
    });
  });

  it('links a new run to the build_id of the query, and refuses an unknown, foreign or differing one', async () => {
    const { org, key, project } = await setup();
    const builder = await createApiKey(t, org.id, ['builds:create']);
    const newBuild = async (apiKey: string) =>
      (await t.http.post('/api/v1/builds').set(withKey(apiKey)).send({ name: 'b' }).expect(202))
        .body.id as string;
    const build = await newBuild(builder.key);
    const xml = '<testsuite><testcase classname="B" name="one"/></testsuite>';
    const res = await postXml(key, `project_id=${project.id}&build_id=${build}`, xml);
    expect(res.status).toBe(201);
    const run = await t.http
      .get(`/api/v1/testruns/${res.body.test_run_id}`)
      .set(withKey(key))
      .expect(200);
    expect(run.body).toMatchObject({ build_id: build, project_id: project.id });

    const stranger = await createTenant(t, ['builds:create']);
    const foreignBuild = await newBuild(stranger.key);
    const otherBuild = await newBuild(builder.key);
    const runsBefore = await runsOf(org.id);
    for (const query of [
      `project_id=${project.id}&build_id=${UNKNOWN_ID}`,
      `project_id=${project.id}&build_id=${foreignBuild}`,
      // Into the existing run: a build_id that differs from the run's.
      `test_run_id=${res.body.test_run_id}&build_id=${otherBuild}`,
    ]) {
      const refused = await postXml(key, query, xml);
      expect({ query, status: refused.status, body: refused.body }).toEqual({
        query,
        status: 400,
        body: {
          error: 'invalid_request',
          message: expect.any(String),
          details: { field: 'build_id', errors: expect.any(Array) },
        },
      });
    }
    expect(await runsOf(org.id)).toBe(runsBefore);
    expect(await storedIn(res.body.test_run_id)).toBe(1);
  });

  it('adds to an existing run and completes it when asked', async () => {
    const { key, project } = await setup();
    const xml = readFileSync(`${FIXTURES}/jest-junit.xml`, 'utf8');
    const first = await postXml(key, `project_id=${project.id}`, xml);
    const again = await postXml(key, `test_run_id=${first.body.test_run_id}&complete=true`, xml);
    expect(again.status).toBe(201);
    expect(again.body.created_test_cases).toBe(0);
    const run = (await t.http.get(`/api/v1/testruns/${first.body.test_run_id}`).set(withKey(key)))
      .body;
    expect(run.status).toBe('completed');
    expect(run.counts.total).toBe(first.body.created_test_cases);
  });

  it('stores a report larger than one write round exactly, into a new run and an existing one', async () => {
    const { key, project } = await setup();
    const n = ROUND_SIZE + 2_500;
    const testcase = (i: number, failed: boolean) =>
      failed
        ? `<testcase classname="big.Suite" name="case${i}"><failure message="no"/></testcase>`
        : `<testcase classname="big.Suite" name="case${i}"/>`;
    // Every 7th case fails; case 0 runs again at the end and fails, so it ends failed: a rerun
    // of the same execution (CONTRACT §13), one result with an attempt, counted once.
    const cases = Array.from({ length: n }, (_, i) => testcase(i, i % 7 === 3));
    const report = `<testsuite>${cases.join('')}${testcase(0, true)}</testsuite>`;
    const failing = Array.from({ length: n }, (_, i) => i % 7 === 3 || i === 0).filter(
      Boolean,
    ).length;

    const first = await postXml(key, `project_id=${project.id}`, report);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ accepted: n, created_test_cases: n });
    const runId = first.body.test_run_id as string;
    const counts = async () =>
      (await t.http.get(`/api/v1/testruns/${runId}`).set(withKey(key)).expect(200)).body.counts;
    expect(await counts()).toMatchObject({ total: n, failed: failing, passed: n - failing });

    const allPass = `<testsuite>${Array.from({ length: n }, (_, i) => testcase(i, false)).join('')}</testsuite>`;
    const second = await postXml(key, `test_run_id=${runId}`, allPass);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ accepted: n, created_test_cases: 0 });
    expect(await counts()).toMatchObject({ total: n, failed: 0, passed: n });
    const [{ stored, current }] = await db.query(
      `SELECT count(*)::int AS stored,
              (SELECT count(*)::int FROM test_run_case WHERE test_run_id = $1) AS current
         FROM test_result WHERE test_run_id = $1`,
      [runId],
    );
    expect({ stored, current }).toEqual({ stored: 2 * n, current: n });
  });

  it('takes two large reports into one run at once, the same cases in opposite orders', async () => {
    const { key, project } = await setup();
    const n = ROUND_SIZE + 2_500;
    const ids = Array.from({ length: n }, (_, i) => i);
    const report = (order: number[], failed: boolean) =>
      `<testsuite>${order
        .map((i) =>
          failed
            ? `<testcase classname="pair.Suite" name="case${i}"><failure/></testcase>`
            : `<testcase classname="pair.Suite" name="case${i}"/>`,
        )
        .join('')}</testsuite>`;
    // The cases exist and the run has them all: both reports then update the same rows.
    const first = await postXml(key, `project_id=${project.id}`, report(ids, false));
    expect(first.status).toBe(201);
    const runId = first.body.test_run_id as string;
    const [forward, backward] = await Promise.all([
      postXml(key, `test_run_id=${runId}`, report(ids, true)),
      postXml(key, `test_run_id=${runId}`, report([...ids].reverse(), true)),
    ]);
    expect([forward.status, backward.status]).toEqual([201, 201]);
    const run = (await t.http.get(`/api/v1/testruns/${runId}`).set(withKey(key)).expect(200)).body;
    expect(run.counts).toMatchObject({ total: n, failed: n, passed: 0 });
  });

  it('counts a rerun once and each configuration of a test apart in accepted', async () => {
    const { key, project } = await setup();
    // Playwright's projects in hostname; the chromium run of "logs in" retried by a rerun.
    const xml = `<testsuites>
      <testsuite name="a.spec.ts" hostname="chromium">
        <testcase classname="a.spec.ts" name="logs in"><failure message="flaky"/></testcase>
      </testsuite>
      <testsuite name="a.spec.ts" hostname="firefox"><testcase classname="a.spec.ts" name="logs in"/></testsuite>
      <testsuite name="a.spec.ts" hostname="chromium"><testcase classname="a.spec.ts" name="logs in"/></testsuite>
    </testsuites>`;
    const res = await postXml(key, `project_id=${project.id}&configuration=ci`, xml);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ accepted: 2, created_test_cases: 1 });
  });

  it('cuts long messages and names between code points, never inside a surrogate pair', async () => {
    const { key, project } = await setup();
    // The cut at 65,535 (message) and 1,000 (names) UTF-16 units falls between the two halves
    // of an emoji; the lone half used to fail the insert of the event (a 500, resubmitted by
    // CI for ever).
    const message = `${'m'.repeat(65_534)}\u{1F600} tail`;
    const name = `${'n'.repeat(999)}\u{1F600}`;
    const xml = `<testsuite><testcase classname="${'c'.repeat(999)}\u{1F600}" name="${name}"><failure message="${message}"/></testcase></testsuite>`;
    const res = await postXml(key, `project_id=${project.id}`, xml);
    expect(res.status).toBe(201);
    const [row] = await db.query(
      `SELECT r.message, c.title, c.section, c.automation_id FROM test_result r
         JOIN test_case c ON c.id = r.test_case_id WHERE r.test_run_id = $1`,
      [res.body.test_run_id],
    );
    expect(row.message).toBe('m'.repeat(65_534));
    expect(row.title).toBe('n'.repeat(999));
    expect(row.section).toBe('c'.repeat(999));
    // The automation id is longer than 1,000: its first 983 characters, ~ and a hash (§13).
    const whole = `${'c'.repeat(999)}\u{1F600}.${name}`;
    const hash = createHash('sha256').update(whole, 'utf8').digest('hex').slice(0, 16);
    expect(row.automation_id).toBe(`${'c'.repeat(983)}~${hash}`);
  });

  it('refuses an unpaired surrogate or a NUL in an XML body of any encoding, naming body', async () => {
    const { org, key, project } = await setup();
    const xml = '<testsuite><testcase name="half \uD800 of a pair"/></testsuite>';
    for (const [type, encoding] of [
      ['application/xml; charset=utf-16le', 'utf16le'],
      ['text/xml; charset=utf-16le', 'utf16le'],
    ] as const) {
      const res = await t.http
        .post(`/api/v1/results/ingest?project_id=${project.id}`)
        .set(withKey(key))
        .set('Content-Type', type)
        .send(Buffer.from(xml, encoding));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_request',
        message: expect.stringMatching(/unpaired surrogate/),
        details: { field: 'body', errors: [{ field: 'body', message: expect.any(String) }] },
      });
    }
    const nul = await postXml(
      key,
      `project_id=${project.id}`,
      '<testsuite><testcase name="a\u0000b"/></testsuite>',
    );
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({
      error: 'invalid_request',
      message: expect.any(String),
      details: { field: 'body', errors: [{ field: 'body', message: expect.any(String) }] },
    });
    expect(await runsOf(org.id)).toBe(0);
  });

  it('rejects malformed XML with the parser’s line and column, storing nothing', async () => {
    const { org, key, project } = await setup();
    const res = await postXml(
      key,
      `project_id=${project.id}`,
      readFileSync(`${FIXTURES}/malformed.xml`, 'utf8'),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      message: expect.stringMatching(/line 8, column \d+/),
      details: { field: 'body', errors: [{ field: 'body', message: expect.any(String) }] },
    });
    expect(await runsOf(org.id)).toBe(0);
    const cases = await db.query('SELECT count(*)::int AS n FROM test_case WHERE project_id = $1', [
      project.id,
    ]);
    expect(cases[0].n).toBe(0);
  });

  it.each([
    ['no project_id', '', 'project_id'],
    ['a malformed project_id', 'project_id=abc', 'project_id'],
    ['a bad complete flag', 'project_id=PROJECT&complete=perhaps', 'complete'],
    ['an unknown parameter', 'project_id=PROJECT&shard=2', 'shard'],
  ])('refuses %s naming it, creating no run', async (_name, query, field) => {
    const { org, key, project } = await setup();
    const res = await postXml(
      key,
      query.replace('PROJECT', project.id),
      '<testsuite><testcase name="a"/></testsuite>',
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      message: expect.any(String),
      details: { field, errors: expect.arrayContaining([expect.objectContaining({ field })]) },
    });
    expect(await runsOf(org.id)).toBe(0);
  });

  it('refuses XML on routes that take only JSON, and other types on ingest', async () => {
    const { key, project } = await setup();
    const run = await t.http
      .post('/api/v1/testruns')
      .set(withKey(key))
      .send({ project_id: project.id, name: 'r' });
    const xmlToResults = await t.http
      .post(`/api/v1/testruns/${run.body.id}/results`)
      .set(withKey(key))
      .set('Content-Type', 'application/xml')
      .send('<testsuite/>');
    expect(xmlToResults.status).toBe(415);
    expect(xmlToResults.body).toEqual({
      error: 'unsupported_media_type',
      message: expect.any(String),
      details: {},
    });
    const csv = await t.http
      .post('/api/v1/results/ingest')
      .set(withKey(key))
      .set('Content-Type', 'text/csv')
      .send('a,b');
    expect(csv.status).toBe(415);
    expect(csv.body).toEqual({
      error: 'unsupported_media_type',
      message: expect.any(String),
      details: {},
    });
    expect(await storedIn(run.body.id)).toBe(0);
  });

  it('answers 413 for a report over 10 MiB', async () => {
    const { key, project } = await setup();
    const big = `<testsuite>${'<testcase name="x"/>'.repeat(600_000)}</testsuite>`;
    const res = await postXml(key, `project_id=${project.id}`, big);
    expect(res.status).toBe(413);
    // The 10 MiB body limit, in bytes (a JUnit body is bounded by its size only).
    expect(res.body).toEqual({
      error: 'payload_too_large',
      message: expect.any(String),
      details: { limit: 10 * 1024 * 1024 },
    });
  });
});
