import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

const FIXTURES = 'test/fixtures/reports';
const STATUSES = ['passed', 'failed', 'skipped', 'retest', 'untested'] as const;

interface Expected extends Record<(typeof STATUSES)[number], number> {
  results: number;
  flaky: number;
  automation_ids_sample: string[];
}

const expected: Record<string, Expected> = JSON.parse(
  readFileSync(`${FIXTURES}/expected.json`, 'utf8'),
);

describe('POST /results/ingest (TRX, NUnit 3, xUnit.net v2, Robot Framework)', () => {
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

  // The fixture's bytes as they are, byte-order mark included.
  const postXml = (key: string, query: string, body: string | Buffer) =>
    t.http
      .post(`/api/v1/results/ingest?${query}`)
      .set(withKey(key))
      .set('Content-Type', 'application/xml')
      .send(body);

  const caseIdsOf = async (runId: string): Promise<string[]> =>
    (
      await db.query(
        'SELECT test_case_id FROM test_result WHERE test_run_id = $1 ORDER BY test_case_id',
        [runId],
      )
    ).map((row: { test_case_id: string }) => row.test_case_id);

  it.each(Object.entries(expected))(
    'imports %s with the counts the report holds',
    async (file, counts) => {
      const { key, project } = await setup();
      const res = await postXml(
        key,
        `project_id=${project.id}&run_name=${encodeURIComponent(file)}`,
        readFileSync(`${FIXTURES}/${file}`),
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        test_run_id: expect.any(String),
        accepted: counts.results,
        created_test_cases: counts.results,
      });
      const stored: Array<{ status: string; flaky: boolean }> = await db.query(
        'SELECT status, flaky FROM test_result WHERE test_run_id = $1',
        [res.body.test_run_id],
      );
      const byStatus = Object.fromEntries(
        STATUSES.map((status) => [status, stored.filter((r) => r.status === status).length]),
      );
      expect({
        ...byStatus,
        results: stored.length,
        flaky: stored.filter((r) => r.flaky).length,
      }).toEqual({
        ...Object.fromEntries(STATUSES.map((status) => [status, counts[status]])),
        results: counts.results,
        flaky: counts.flaky,
      });
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

  it.each(Object.keys(expected))(
    'names the same test cases when %s is ingested again',
    async (file) => {
      const { key, project } = await setup();
      const body = readFileSync(`${FIXTURES}/${file}`);
      const first = await postXml(key, `project_id=${project.id}&run_name=first`, body);
      const again = await postXml(key, `project_id=${project.id}&run_name=again`, body);
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.body.created_test_cases).toBe(0);
      expect(await caseIdsOf(again.body.test_run_id)).toEqual(
        await caseIdsOf(first.body.test_run_id),
      );
    },
  );

  it('keeps the failure message, type, stack trace and duration, and the call configuration', async () => {
    const { key, project } = await setup();
    const res = await postXml(
      key,
      `project_id=${project.id}&configuration=${encodeURIComponent('linux / net8')}`,
      readFileSync(`${FIXTURES}/xunit/xunit-v2.xml`),
    );
    expect(res.status).toBe(201);
    const [failed] = await db.query(
      `SELECT c.title, c.section, r.message, r.failure_type, r.stack_trace, r.duration_ms,
              r.configuration
         FROM test_result r JOIN test_case c ON c.id = r.test_case_id
        WHERE r.test_run_id = $1 AND c.automation_id LIKE '%東京%'`,
      [res.body.test_run_id],
    );
    expect(failed).toEqual({
      title: 'Haversine(from: "東京", to: "大阪", km: 397)',
      section: 'Geo.Tests.DistanceTests',
      message: 'Assert.Equal() Failure: Values differ\nExpected: 397\nActual:   403',
      failure_type: 'Xunit.Sdk.EqualException',
      stack_trace: expect.stringMatching(/^at Geo\.Tests\.DistanceTests\.Haversine/),
      duration_ms: 10,
      configuration: 'linux / net8',
    });
  });

  it('takes the format named, and refuses a body of another shape naming body', async () => {
    const { key, project } = await setup();
    const trx = readFileSync(`${FIXTURES}/trx/mstest.trx`);
    const named = await postXml(key, `project_id=${project.id}&format=trx`, trx);
    expect(named.status).toBe(201);
    expect(named.body.accepted).toBe(7);

    const mismatched = await postXml(key, `project_id=${project.id}&format=robot`, trx);
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.error).toBe('invalid_request');
    expect(mismatched.body.details.field).toBe('body');
    expect(mismatched.body.message).toMatch(/format=robot .* root element is <TestRun>/);

    const json = await postXml(key, `project_id=${project.id}&format=jest`, trx);
    expect(json.status).toBe(400);
    expect(json.body.details.field).toBe('body');
  });

  it('refuses an unknown root, listing the formats taken, and stores nothing', async () => {
    const { key, project, org } = await setup();
    const res = await postXml(
      key,
      `project_id=${project.id}`,
      '<?xml version="1.0"?>\n<test-results name="nunit2.dll"/>',
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.details.field).toBe('body');
    for (const shape of ['<testsuites>', '<TestRun>', '<test-run>', '<assemblies>', '<robot>']) {
      expect(res.body.message).toContain(shape);
    }
    const [{ n }] = await db.query(
      'SELECT count(*)::int AS n FROM test_run WHERE organization_id = $1',
      [org.id],
    );
    expect(n).toBe(0);
  });

  it('refuses a malformed report with the line and column', async () => {
    const { key, project } = await setup();
    const res = await postXml(
      key,
      `project_id=${project.id}`,
      '<robot>\n<suite name="S">\n<test name="T"><status status="PASS"></test>\n</suite></robot>',
    );
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('body');
    expect(res.body.message).toMatch(
      /not well-formed Robot Framework output\.xml.* at line 3, column \d+/,
    );
  });
});
