import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

/**
 * Numbers and timestamps at the edges of what PostgreSQL holds: each of these reached the
 * database and failed there (a 500) before it was bounded in validation.
 */
describe('input at the edges of what the database holds', () => {
  let t: TestApp;
  let key: string;
  let projectId: string;
  beforeAll(async () => {
    t = await startApp();
    const tenant = await createTenant(t, [...RUN_SCOPES, 'builds:read', 'builds:create']);
    key = tenant.key;
    projectId = (await createProject(t, tenant.org.id)).id;
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http.get(path).set(withKey(key));

  it('bounds offset to 1,000,000,000 on every list, naming offset', async () => {
    for (const path of [
      '/api/v1/builds',
      '/api/v1/testruns',
      `/api/v1/projects/${projectId}/testcases`,
    ]) {
      for (const offset of ['9223372036854775808', '1000000001', '-1', '1e3']) {
        const res = await get(`${path}?offset=${offset}`);
        expect({ path, offset, status: res.status, field: res.body.details?.field }).toEqual({
          path,
          offset,
          status: 400,
          field: 'offset',
        });
      }
      const last = await get(`${path}?offset=1000000000`);
      expect(last.status).toBe(200);
      expect(last.body.data).toEqual([]);
      expect(last.body.pagination.offset).toBe(1_000_000_000);
    }
  });

  it.each([
    ['year 0000', '0000-06-01T00:00:00Z'],
    ['year 9999 pushed into 10000 by its offset', '9999-12-31T23:00:00-05:00'],
    ['year 1899', '1899-12-31T23:59:59Z'],
    ['no time zone', '2026-05-01T12:00:00'],
    ['a day the month lacks', '2026-02-29T12:00:00Z'],
    ['hour 24', '2026-05-01T24:00:00Z'],
  ])(
    'refuses a timestamp of %s in a body and in every filter, naming the field',
    async (_name, value) => {
      const run = await createRun(t, key, projectId);
      const submitted = await submitResults(t, key, run.id, [
        { automation_id: 'edge.case', status: 'passed', executed_at: value },
      ]);
      expect(submitted.status).toBe(400);
      expect(submitted.body.details.field).toBe('results[0].executed_at');

      for (const [path, field] of [
        ['/api/v1/builds', 'created_after'],
        ['/api/v1/builds', 'created_before'],
        ['/api/v1/testruns', 'created_after'],
        [`/api/v1/projects/${projectId}/testcases`, 'updated_after'],
      ]) {
        const res = await get(`${path}?${field}=${encodeURIComponent(value)}`);
        expect({ path, status: res.status, field: res.body.details?.field }).toEqual({
          path,
          status: 400,
          field,
        });
      }

      const org = await t.http
        .post('/internal/v1/organizations')
        .set(OPERATOR)
        .send({ name: 'Edge', plan: 'pro', subscription_started_at: value });
      expect(org.status).toBe(400);
      expect(org.body.details.field).toBe('subscription_started_at');
    },
  );

  it('takes the first and last instants of the range', async () => {
    const run = await createRun(t, key, projectId);
    const res = await submitResults(t, key, run.id, [
      { automation_id: 'edge.first', status: 'passed', executed_at: '1900-01-01T00:00:00Z' },
      { automation_id: 'edge.last', status: 'passed', executed_at: '9999-12-31T23:59:59.999Z' },
      { automation_id: 'edge.zone', status: 'passed', executed_at: '1900-01-01T01:00:00+01:00' },
    ]);
    expect(res.status).toBe(201);
    const stored = await t.app.get(DataSource).query(
      `SELECT to_char(executed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS at
           FROM test_result WHERE test_run_id = $1 ORDER BY executed_at`,
      [run.id],
    );
    expect(stored.map((row: { at: string }) => row.at)).toEqual([
      '1900-01-01T00:00:00.000',
      '1900-01-01T00:00:00.000',
      '9999-12-31T23:59:59.999',
    ]);
    const filtered = await get(
      `/api/v1/builds?created_after=${encodeURIComponent('1900-01-01T00:00:00Z')}`,
    );
    expect(filtered.status).toBe(200);
  });

  it('refuses a release target date outside 1900–9999 or that does not exist', async () => {
    for (const target_date of ['0000-01-01', '2026-02-30', '10000-01-01', '2026-04-30T00:00:00Z']) {
      const res = await t.http
        .post(`/internal/v1/projects/${projectId}/releases`)
        .set(OPERATOR)
        .send({ name: 'Edge release', target_date });
      expect({ target_date, status: res.status, field: res.body.details?.field }).toEqual({
        target_date,
        status: 400,
        field: 'target_date',
      });
    }
  });
});
