import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

/** CONTRACT §13's fields of a result item, refused over HTTP as the parser names them. */
describe('result items: configuration, attempts, identity (400s)', () => {
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
    const run = await createRun(t, tenant.key, project.id);
    return { ...tenant, project, run };
  }
  const stored = async (runId: string) =>
    (
      await db.query('SELECT count(*)::int AS n FROM test_result WHERE test_run_id = $1', [runId])
    )[0].n;
  const ok = { automation_id: 'a.B.c', status: 'passed' };

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    [
      'a configuration longer than 100 characters once trimmed',
      { results: [ok, { ...ok, configuration: ` ${'c'.repeat(101)} ` }] },
      'results[1].configuration',
    ],
    [
      'a configuration that is not a string',
      { results: [{ ...ok, configuration: 42 }] },
      'results[0].configuration',
    ],
    [
      'attempts that are not a list',
      { results: [{ ...ok, attempts: { status: 'failed' } }] },
      'results[0].attempts',
    ],
    [
      'an attempt without a status',
      { results: [{ ...ok, attempts: [{ status: 'failed' }, { message: 'x' }] }] },
      'results[0].attempts[1].status',
    ],
    [
      'an attempt with an unknown field',
      { results: [{ ...ok, attempts: [{ status: 'failed', retries: 1 }] }] },
      'results[0].attempts[0].retries',
    ],
    [
      'an attempt with a negative duration',
      { results: [{ ...ok, attempts: [{ status: 'failed', duration_ms: -5 }] }] },
      'results[0].attempts[0].duration_ms',
    ],
    [
      'retries that disagree with the attempts',
      { results: [{ ...ok, retries: 1, attempts: [{ status: 'failed' }, { status: 'blocked' }] }] },
      'results[0].retries',
    ],
    [
      'an automation id longer than 1,000 characters',
      { results: [{ ...ok, automation_id: 'a'.repeat(1001) }] },
      'results[0].automation_id',
    ],
    [
      'a call configuration that is not a string',
      { results: [ok], configuration: true },
      'configuration',
    ],
    [
      'a call configuration too long',
      { results: [ok], configuration: 'c'.repeat(101) },
      'configuration',
    ],
  ];

  it.each(invalid)(
    'POST /testruns/{id}/results refuses %s naming it, storing nothing',
    async (_name, body, field) => {
      const { key, run } = await setup();
      const res = await t.http
        .post(`/api/v1/testruns/${run.id}/results`)
        .set(withKey(key))
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details.field).toBe(field);
      expect(res.body.message).toContain(field);
      // Checked as the field it is, not refused as an unknown one.
      expect(res.body.message).not.toMatch(/is not a (result )?field/);
      expect(await stored(run.id)).toBe(0);
    },
  );

  it.each(invalid)('POST /results/ingest refuses %s naming it', async (_name, body, field) => {
    const { key, project } = await setup();
    const res = await t.http
      .post('/api/v1/results/ingest')
      .set(withKey(key))
      .send({ project_id: project.id, ...body });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe(field);
    expect(res.body.message).not.toMatch(/is not a (result )?field/);
  });

  it('accepts configuration and attempts that agree with retries', async () => {
    const { key, run } = await setup();
    const res = await t.http
      .post(`/api/v1/testruns/${run.id}/results`)
      .set(withKey(key))
      .send({
        configuration: '  linux ',
        results: [
          { ...ok, configuration: 'firefox', retries: 1, attempts: [{ status: 'failed' }] },
          { ...ok, automation_id: ` ${'a'.repeat(998)} `, configuration: ' ' },
        ],
      });
    expect(res.status).toBe(201);
    expect(res.body.accepted).toBe(2);
  });

  it('refuses a configuration query parameter too long for a JUnit report, naming it', async () => {
    const { key, project } = await setup();
    const res = await t.http
      .post(`/api/v1/results/ingest?project_id=${project.id}&configuration=${'c'.repeat(101)}`)
      .set(withKey(key))
      .set('Content-Type', 'application/xml')
      .send('<testsuite><testcase name="t"/></testsuite>');
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('configuration');
    const blank = await t.http
      .post(`/api/v1/results/ingest?project_id=${project.id}&configuration=%20`)
      .set(withKey(key))
      .set('Content-Type', 'application/xml')
      .send('<testsuite><testcase name="t"/></testsuite>');
    expect(blank.status).toBe(201);
  });
});
