import { DataSource } from 'typeorm';
import { createProject, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

describe('results', () => {
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
  const runCounts = async (key: string, runId: string) =>
    (await t.http.get(`/api/v1/testruns/${runId}`).set(withKey(key)).expect(200)).body.counts;
  const stored = async (runId: string) =>
    (
      await db.query('SELECT count(*)::int AS n FROM test_result WHERE test_run_id = $1', [runId])
    )[0].n;
  const casesOf = async (projectId: string) =>
    (
      await db.query('SELECT count(*)::int AS n FROM test_case WHERE project_id = $1', [projectId])
    )[0].n;

  describe('POST /testruns/{id}/results', () => {
    it('stores a batch, creating cases for unknown automation ids, and answers 201', async () => {
      const { key, project, run } = await setup();
      const known = await createTestCase(t, project.id, { automation_id: 'known.Case.one' });
      const res = await submitResults(t, key, run.id, [
        {
          test_case_id: known.id,
          status: 'passed',
          duration_ms: 1200,
          executed_at: '2026-05-01T12:00:00Z',
        },
        { automation_id: 'known.Case.one', status: 'failed', message: 'boom', defects: ['JIRA-1'] },
        { automation_id: 'new.Case.two', title: 'Two', section: 'New / Cases', status: 'skipped' },
        { automation_id: 'new.Case.three', status: 'passed', retries: 2 },
      ]);
      expect(res.status).toBe(201);
      expect(res.body.accepted).toBe(4);
      expect(res.body.created_test_cases).toBe(2);
      expect(res.body.data).toHaveLength(4);
      // One transaction, one created_at; and no ETag (response bodies are not hashed).
      expect(new Set(res.body.data.map((r: { created_at: string }) => r.created_at)).size).toBe(1);
      expect(res.headers.etag).toBeUndefined();
      expect(res.body.data[0]).toEqual({
        id: expect.any(String),
        test_run_id: run.id,
        test_case_id: known.id,
        status: 'passed',
        duration_ms: 1200,
        message: null,
        defects: [],
        retries: 0,
        flaky: false,
        executed_at: '2026-05-01T12:00:00.000Z',
        created_at: expect.any(String),
        failure_type: null,
        stack_trace: null,
        signature: null,
        configuration: null,
        attempts: [],
      });
      expect(res.body.data[1]).toMatchObject({
        test_case_id: known.id,
        status: 'failed',
        message: 'boom',
        defects: ['JIRA-1'],
      });
      expect(res.body.data[3]).toMatchObject({ status: 'passed', retries: 2, flaky: true });

      // known.Case.one's current result is the later (failed) one; the earlier stays in history.
      expect(await runCounts(key, run.id)).toEqual({
        total: 3,
        passed: 1,
        failed: 1,
        blocked: 0,
        skipped: 1,
        retest: 0,
        untested: 0,
        flaky: 1,
      });
      const cases = await t.http
        .get(`/api/v1/projects/${project.id}/testcases?automation_id=new.Case.two`)
        .set(withKey(key));
      expect(cases.body.data[0]).toMatchObject({
        title: 'Two',
        section: 'New / Cases',
        automation_id: 'new.Case.two',
      });
      const untitled = await t.http
        .get(`/api/v1/projects/${project.id}/testcases?automation_id=new.Case.three`)
        .set(withKey(key));
      expect(untitled.body.data[0].title).toBe('new.Case.three');
    });

    it('makes a later result the current one and keeps the history', async () => {
      const { key, run } = await setup();
      await submitResults(t, key, run.id, [
        { automation_id: 'x', status: 'failed' },
        { automation_id: 'y', status: 'passed' },
      ]);
      await submitResults(t, key, run.id, [{ automation_id: 'x', status: 'passed', retries: 1 }]);
      expect(await runCounts(key, run.id)).toEqual({
        total: 2,
        passed: 2,
        failed: 0,
        blocked: 0,
        skipped: 0,
        retest: 0,
        untested: 0,
        flaky: 1,
      });
      const current = await t.http
        .get(`/api/v1/testruns/${run.id}/results`)
        .set(withKey(key))
        .expect(200);
      expect(current.body.pagination.total).toBe(2);
      const history = await t.http
        .get(`/api/v1/testruns/${run.id}/results?include_history=true`)
        .set(withKey(key));
      expect(history.body.pagination.total).toBe(3);
      const failed = await t.http
        .get(`/api/v1/testruns/${run.id}/results?include_history=true&status=failed`)
        .set(withKey(key));
      expect(failed.body.data).toHaveLength(1);
      const xId = failed.body.data[0].test_case_id;
      const ofX = await t.http
        .get(`/api/v1/testruns/${run.id}/results?include_history=true&test_case_id=${xId}`)
        .set(withKey(key));
      expect(ofX.body.data.map((r: { status: string }) => r.status).sort()).toEqual([
        'failed',
        'passed',
      ]);
      const onlyCurrentOfX = await t.http
        .get(`/api/v1/testruns/${run.id}/results?test_case_id=${xId}`)
        .set(withKey(key));
      expect(onlyCurrentOfX.body.data.map((r: { status: string }) => r.status)).toEqual(['passed']);
    });

    it('refuses a bad filter or page of GET /testruns/{id}/results naming it', async () => {
      const { key, run } = await setup();
      await submitResults(t, key, run.id, [{ automation_id: 'a', status: 'passed' }]).expect(201);
      // A real case of another organization: 400 naming the field, as an unknown id would be,
      // so the answer does not tell whether the id exists elsewhere (CONTRACT §5b).
      const stranger = await setup();
      const theirCase = await createTestCase(t, stranger.project.id);
      for (const [query, field] of [
        ['include_history=maybe', 'include_history'],
        [`test_case_id=${theirCase.id}`, 'test_case_id'],
        [`test_case_id=${UNKNOWN_ID}`, 'test_case_id'],
        ['status=green', 'status'],
        ['offset=1.5', 'offset'],
        ['offset=-1', 'offset'],
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=2.5', 'limit'],
      ]) {
        const res = await t.http
          .get(`/api/v1/testruns/${run.id}/results?${query}`)
          .set(withKey(key));
        expect({ query, status: res.status, body: res.body }).toEqual({
          query,
          status: 400,
          body: {
            error: 'invalid_request',
            message: expect.any(String),
            details: {
              field,
              errors: expect.arrayContaining([expect.objectContaining({ field })]),
            },
          },
        });
      }
      // The other organization's case, named in a submission: refused the same way.
      const into = await submitResults(t, key, run.id, [
        { automation_id: 'b', status: 'passed' },
        { test_case_id: theirCase.id, status: 'passed' },
      ]);
      expect(into.status).toBe(400);
      expect(into.body.details.field).toBe('results[1].test_case_id');
      expect(await stored(run.id)).toBe(1);
    });

    it('pages the results of a run newest first with an exact envelope', async () => {
      const { key, run } = await setup();
      const submitted: string[] = [];
      for (const name of ['p1', 'p2', 'p3']) {
        const res = await submitResults(t, key, run.id, [
          { automation_id: name, status: 'passed' },
        ]);
        expect(res.status).toBe(201);
        submitted.push(res.body.data[0].id);
      }
      const page = async (query: string) =>
        (
          await t.http
            .get(`/api/v1/testruns/${run.id}/results?${query}`)
            .set(withKey(key))
            .expect(200)
        ).body;
      const all = await page('');
      expect(all.data.map((r: { id: string }) => r.id)).toEqual([...submitted].reverse());
      expect(all.pagination).toEqual({ total: 3, limit: 25, offset: 0, has_more: false });
      const second = await page('limit=1&offset=1');
      expect(second.data.map((r: { id: string }) => r.id)).toEqual([submitted[1]]);
      expect(second.pagination).toEqual({ total: 3, limit: 1, offset: 1, has_more: true });
      expect(await page('offset=5')).toEqual({
        data: [],
        pagination: { total: 3, limit: 25, offset: 5, has_more: false },
      });
    });

    // An unknown test case id, refused by the write path after the body parsed, and completing
    // the run with "complete": true are at the service tier
    // (test/test-run-lifecycle/submit-results.medium-spec.ts).
    const invalid: Array<[string, unknown, string]> = [
      [
        'a bad status in item 7',
        Array.from({ length: 9 }, (_, i) => ({
          automation_id: `c${i}`,
          status: i === 7 ? 'green' : 'passed',
        })),
        'results[7].status',
      ],
      ['a missing status', [{ automation_id: 'a' }], 'results[0].status'],
      ['no case reference', [{ status: 'passed' }], 'results[0].test_case_id'],
      [
        'both case references',
        [
          {
            status: 'passed',
            automation_id: 'a',
            test_case_id: '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c',
          },
        ],
        'results[0].automation_id',
      ],
      [
        'a malformed test case id',
        [{ test_case_id: '42', status: 'passed' }],
        'results[0].test_case_id',
      ],
      [
        'a negative duration',
        [{ automation_id: 'a', status: 'passed', duration_ms: -1 }],
        'results[0].duration_ms',
      ],
      [
        'a fractional retry count',
        [{ automation_id: 'a', status: 'passed', retries: 1.5 }],
        'results[0].retries',
      ],
      [
        'a bad timestamp',
        [{ automation_id: 'a', status: 'passed', executed_at: 'yesterday' }],
        'results[0].executed_at',
      ],
      [
        'defects that are not strings',
        [{ automation_id: 'a', status: 'passed', defects: [1] }],
        'results[0].defects',
      ],
      [
        'an unknown field',
        [{ automation_id: 'a', status: 'passed', colour: 'green' }],
        'results[0].colour',
      ],
      [
        'a NUL character in a message',
        [{ automation_id: 'a', status: 'failed', message: 'bad\u0000byte' }],
        'results[0].message',
      ],
      [
        'a NUL character in a defect',
        [{ automation_id: 'a', status: 'failed', defects: ['JIRA-1\u0000'] }],
        'results[0].defects',
      ],
      [
        'an unpaired surrogate in an automation id',
        [{ automation_id: 'a\ud800', status: 'passed' }],
        'results[0].automation_id',
      ],
      ['an item that is not an object', ['passed'], 'results[0]'],
      ['an empty list', [], 'results'],
      ['no list', undefined, 'results'],
    ];
    it.each(invalid)('rejects %s naming it, storing nothing', async (_name, results, field) => {
      const { key, project, run } = await setup();
      const before = await casesOf(project.id);
      const res = await t.http
        .post(`/api/v1/testruns/${run.id}/results`)
        .set(withKey(key))
        .send(results === undefined ? {} : { results });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details.field).toBe(field);
      expect(await stored(run.id)).toBe(0);
      expect(await casesOf(project.id)).toBe(before);
      expect(await runCounts(key, run.id)).toMatchObject({ total: 0 });
    });

    it('rejects unknown top-level fields and a non-boolean complete', async () => {
      const { key, run } = await setup();
      const extra = await t.http
        .post(`/api/v1/testruns/${run.id}/results`)
        .set(withKey(key))
        .send({ results: [{ automation_id: 'a', status: 'passed' }], force: true });
      expect(extra.body.details.field).toBe('force');
      const complete = await submitResults(
        t,
        key,
        run.id,
        [{ automation_id: 'a', status: 'passed' }],
        'yes' as unknown as boolean,
      );
      expect(complete.body.details.field).toBe('complete');
    });

    it('answers 413 for more than 5,000 results and accepts exactly 5,000', async () => {
      const { key, run } = await setup();
      const many = (n: number) =>
        Array.from({ length: n }, (_, i) => ({ automation_id: `bulk.${i}`, status: 'passed' }));
      const tooMany = await submitResults(t, key, run.id, many(5001));
      expect(tooMany.status).toBe(413);
      expect(tooMany.body).toEqual({
        error: 'payload_too_large',
        message: expect.any(String),
        details: { limit: 5000 },
      });
      expect(await stored(run.id)).toBe(0);
      const max = await submitResults(t, key, run.id, many(5000));
      expect(max.status).toBe(201);
      expect(max.body).toMatchObject({ accepted: 5000, created_test_cases: 5000 });
      expect(await runCounts(key, run.id)).toMatchObject({ total: 5000, passed: 5000 });
    });

    it('needs results:submit', async () => {
      const { org, run } = await setup();
      const { createApiKey } = await import('../factories/organizations.js');
      const reader = await createApiKey(t, org.id, ['testruns:read', 'results:read']);
      const res = await submitResults(t, reader.key, run.id, [
        { automation_id: 'a', status: 'passed' },
      ]);
      expect(res.status).toBe(403);
      expect(res.body.details.required_scopes).toEqual(['results:submit']);
    });
  });

  // How a batch's cases are found or created (two batches racing, names COPY must escape, a
  // case deleted or created behind the writer's back, 8 shards at once) and what the tables
  // keep of results are at the service tier (test/results/result-writer.medium-spec.ts).
});
