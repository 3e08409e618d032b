import { jest } from '@jest/globals';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { RUN_SCOPES } from '../factories/runs.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import type { PlanNode } from '../support/query-plans.js';

/** Small beside the 20,000, large enough that reading a run per row of it shows. */
const CASES = 1_500;
const EARLIER_RUNS = 2;
/**
 * Rows a read of the run may touch, in every plan node and loop, per case of the run: reading
 * each row a few times (the page, its total, the joins by key) stays far below it; reading the
 * run's current results once per result of the run (the plan) is CASES times over it.
 */
const ROWS_PER_CASE = 10;

/** A JUnit report of CASES cases, one in fifty failed and one in a hundred skipped. */
function report(round: number): string {
  const cases = Array.from({ length: CASES }, (_, i) => {
    const open = `<testcase classname="fresh.Suite${i % 10}" name="test${i}" time="0.004"`;
    if ((i + round) % 50 === 0)
      return `${open}><failure message="expected ${i % 3}">at ${i}</failure></testcase>`;
    if (i % 100 === 7) return `${open}><skipped/></testcase>`;
    return `${open}/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="fresh" tests="${CASES}">${cases.join('')}</testsuite></testsuites>`;
}

/** Every row a plan's nodes produced or discarded, over all their loops. */
function rowsTouched(node: PlanNode): number {
  const own =
    (node['Actual Rows'] +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Join Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0)) *
    node['Actual Loops'];
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsTouched(child), 0);
}

interface Statement {
  text: string;
  values: unknown[];
}

/**
 * A run's reads the moment it lands (issue 25 item 7): PostgreSQL has statistics of the
 * project's earlier runs but not of this one, and autovacuum may not have run for hours. Each
 * read's statements, as the service sends them, are run again under EXPLAIN ANALYZE and must
 * touch rows in proportion to the run, not to its square.
 */
describe('reads of a run before PostgreSQL has statistics for it', () => {
  let t: TestApp;
  let key: string;
  let runId: string;
  let someCase: string;

  beforeAll(async () => {
    t = await startApp();
    const tenant = await createTenant(t, RUN_SCOPES);
    key = tenant.key;
    const project = await createProject(t, tenant.org.id);
    const ingest = async (round: number): Promise<string> => {
      const res = await t.http
        .post(`/api/v1/results/ingest?project_id=${project.id}&run_name=nightly`)
        .set({ ...withKey(key), 'Content-Type': 'application/xml' })
        .send(report(round));
      expect(res.status).toBe(201);
      expect(res.body.accepted).toBe(CASES);
      return res.body.test_run_id;
    };
    for (let round = 0; round < EARLIER_RUNS; round++) await ingest(round);
    // As autoanalyze would have, long after the earlier runs; the new run lands after it.
    await t.app.get(DataSource).query('ANALYZE test_result, test_run_case, test_case, test_run');
    runId = await ingest(EARLIER_RUNS);
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT test_case_id FROM test_run_case WHERE test_run_id = $1 LIMIT 1 OFFSET 77', [
        runId,
      ]);
    someCase = row.test_case_id;
  }, 120_000);

  afterAll(() => t.close());

  /** The statements on results the service sends to answer GET `path` (which must be 200). */
  async function statementsOf(path: string, headers: Record<string, string>) {
    // Spied, not replaced: every query still runs, and its text and values are kept.
    const query = jest.spyOn(pg.Client.prototype, 'query');
    let calls: unknown[][];
    try {
      const res = await t.http.get(path).set(headers);
      expect(res.status).toBe(200);
      calls = query.mock.calls as unknown[][];
    } finally {
      query.mockRestore();
    }
    return calls
      .map(([config, values]): Statement => {
        if (typeof config === 'string')
          return { text: config, values: Array.isArray(values) ? values : [] };
        const { text, values: bound } = config as { text: string; values?: unknown[] };
        return { text, values: bound ?? [] };
      })
      .filter(
        (s) =>
          /^\s*(SELECT|WITH)\b/i.test(s.text) && /\b(test_result|test_run_case)\b/.test(s.text),
      );
  }

  const reads: Array<[string, () => string, 'api' | 'console']> = [
    ['results', () => `/api/v1/testruns/${runId}/results?limit=50`, 'api'],
    [
      'results status=passed',
      () => `/api/v1/testruns/${runId}/results?limit=50&status=passed`,
      'api',
    ],
    [
      'results status=failed',
      () => `/api/v1/testruns/${runId}/results?limit=50&status=failed`,
      'api',
    ],
    [
      'results status=skipped',
      () => `/api/v1/testruns/${runId}/results?limit=50&status=skipped`,
      'api',
    ],
    [
      'results test_case_id',
      () => `/api/v1/testruns/${runId}/results?test_case_id=${someCase}`,
      'api',
    ],
    [
      'results include_history',
      () => `/api/v1/testruns/${runId}/results?include_history=true`,
      'api',
    ],
    ['failures', () => `/api/v1/testruns/${runId}/failures`, 'api'],
    ['comparison', () => `/api/v1/testruns/${runId}/comparison`, 'api'],
    ['gate', () => `/api/v1/testruns/${runId}/gate`, 'api'],
    ['console: results', () => `/internal/v1/testruns/${runId}/results?limit=50`, 'console'],
    ['console: results q', () => `/internal/v1/testruns/${runId}/results?q=test12`, 'console'],
    ['console: comparison', () => `/internal/v1/testruns/${runId}/comparison`, 'console'],
  ];

  it('counts the same results as before: each case’s current one, filtered', async () => {
    const total = async (query: string) =>
      (
        await t.http
          .get(`/internal/v1/testruns/${runId}/results?${query}`)
          .set(OPERATOR)
          .expect(200)
      ).body.pagination.total;
    const run = (await t.http.get(`/api/v1/testruns/${runId}`).set(withKey(key)).expect(200)).body;
    expect(await total('limit=1')).toBe(CASES);
    expect(await total('status=failed')).toBe(run.counts.failed);
    expect(await total('status=skipped')).toBe(run.counts.skipped);
    expect(await total(`test_case_id=${someCase}`)).toBe(1);
    // test12, test120–test129 and test1200–test1299.
    expect(await total('q=TEST12')).toBe(111);
    // Of which failed (one case in fifty, from test48): test1248 and test1298.
    expect(await total('status=failed&q=TEST12')).toBe(2);
    // A page past the end still says how many there are; the run holds one result per case.
    expect(await total('q=TEST12&offset=200')).toBe(111);
    expect(await total('q=TEST12&include_history=true')).toBe(111);
  });

  it.each(reads)('%s touches rows in proportion to the run', async (_name, path, caller) => {
    const statements = await statementsOf(path(), caller === 'api' ? withKey(key) : OPERATOR);
    expect(statements.length).toBeGreaterThan(0);
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    const heavy: Array<{ statement: string; touched: number }> = [];
    try {
      for (const statement of statements) {
        const { rows } = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
          statement.values,
        );
        const touched = rowsTouched(rows[0]['QUERY PLAN'][0].Plan);
        if (touched > ROWS_PER_CASE * CASES) heavy.push({ statement: statement.text, touched });
      }
    } finally {
      await db.end();
    }
    expect(heavy).toEqual([]);
  });
});
