import { DataSource } from 'typeorm';
import { createProject, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, RUN_SCOPES, submitResults } from '../factories/runs.js';
import { pollUntil } from '../support/service-control.js';
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

  describe('concurrency', () => {
    it('creates a new automation id once when two batches race on it', async () => {
      const { key, project } = await setup();
      const runs = [await createRun(t, key, project.id), await createRun(t, key, project.id)];
      const batch = Array.from({ length: 50 }, (_, i) => ({
        automation_id: `race.${i}`,
        status: 'passed',
      }));
      const responses = await Promise.all(runs.map((run) => submitResults(t, key, run.id, batch)));
      expect(responses.map((r) => r.status)).toEqual([201, 201]);
      expect(responses[0].body.created_test_cases + responses[1].body.created_test_cases).toBe(50);
      expect(await casesOf(project.id)).toBe(50);
      const ids = responses.map((r) =>
        r.body.data.map((d: { test_case_id: string }) => d.test_case_id),
      );
      expect(ids[0]).toEqual(ids[1]);
    });

    it('creates and then finds cases whose automation ids hold quotes, backslashes, braces and tabs', async () => {
      const { key, project, run } = await setup();
      const names = ['say "hi"', 'c:\\dir\\test', 'NULL', 'x,y} {z', 'tab\there', 'line\nbreak'];
      const batch = names.map((automation_id) => ({ automation_id, status: 'passed' }));
      const first = await submitResults(t, key, run.id, batch).expect(201);
      expect(first.body.created_test_cases).toBe(names.length);
      const again = await submitResults(t, key, run.id, batch).expect(201);
      expect(again.body.created_test_cases).toBe(0);
      expect(again.body.data.map((r: { test_case_id: string }) => r.test_case_id)).toEqual(
        first.body.data.map((r: { test_case_id: string }) => r.test_case_id),
      );
      const stored: Array<{ automation_id: string; title: string }> = await db.query(
        'SELECT automation_id, title FROM test_case WHERE project_id = $1 ORDER BY automation_id',
        [project.id],
      );
      expect(stored.map((row) => row.automation_id)).toEqual([...names].sort());
      expect(stored.every((row) => row.title === row.automation_id)).toBe(true);
    });

    it('finds the cases of earlier batches again, and recreates one deleted by hand since', async () => {
      const { key, project, run } = await setup();
      const batch = ['kept.one', 'kept.two'].map((automation_id) => ({
        automation_id,
        status: 'passed',
      }));
      const created = await submitResults(t, key, run.id, batch).expect(201);
      expect(created.body.created_test_cases).toBe(2);
      const found = await submitResults(t, key, run.id, batch).expect(201);
      expect(found.body.created_test_cases).toBe(0);
      expect(found.body.data.map((r: { test_case_id: string }) => r.test_case_id)).toEqual(
        created.body.data.map((r: { test_case_id: string }) => r.test_case_id),
      );
      const [one] = found.body.data as Array<{ test_case_id: string }>;

      // Deleted behind the service's back (the process may still remember its id): the
      // batch is stored anyway, with a new case for the deleted automation id.
      await db.query('DELETE FROM test_case WHERE id = $1', [one.test_case_id]);
      const recreated = await submitResults(t, key, run.id, batch).expect(201);
      expect(recreated.body.created_test_cases).toBe(1);
      expect(recreated.body.data[0].test_case_id).not.toBe(one.test_case_id);
      expect(await casesOf(project.id)).toBe(2);
      // Each case's current result: the recreated case's and kept.two's.
      const current = await t.http
        .get(`/api/v1/testruns/${run.id}/results`)
        .set(withKey(key))
        .expect(200);
      expect(current.body.data.map((r: { test_case_id: string }) => r.test_case_id).sort()).toEqual(
        recreated.body.data.map((r: { test_case_id: string }) => r.test_case_id).sort(),
      );
    });

    it('creates the cases it does not remember in a known project, finding the ones that exist', async () => {
      const { key, project, run } = await setup();
      await submitResults(t, key, run.id, [{ automation_id: 'seen.a', status: 'passed' }]);
      await submitResults(t, key, run.id, [{ automation_id: 'seen.a', status: 'passed' }]);
      // Created elsewhere (the internal API), so this process does not remember it.
      const existing = await createTestCase(t, project.id, { automation_id: 'elsewhere.b' });
      const res = await submitResults(
        t,
        key,
        run.id,
        ['seen.a', 'elsewhere.b', 'brand.new.c'].map((automation_id) => ({
          automation_id,
          status: 'failed',
        })),
      ).expect(201);
      expect(res.body.created_test_cases).toBe(1);
      expect(res.body.data[1].test_case_id).toBe(existing.id);
      expect(await casesOf(project.id)).toBe(3);
      expect(await runCounts(key, run.id)).toMatchObject({ total: 3, failed: 3 });
    });

    it('uses a case created by another transaction while the batch was creating it', async () => {
      const { key, org, project, run } = await setup();
      // Another writer holds an uncommitted case with one of the batch's new automation ids:
      // the batch's bulk load of new cases waits for it, then meets its unique key.
      const other = db.createQueryRunner();
      await other.connect();
      await other.startTransaction();
      const [{ id: theirs }] = await other.query(
        `INSERT INTO test_case (organization_id, project_id, title, automation_id)
         VALUES ($1, $2, 'Theirs', 'meanwhile.b') RETURNING id`,
        [org.id, project.id],
      );
      const pending = submitResults(
        t,
        key,
        run.id,
        ['meanwhile.a', 'meanwhile.b', 'meanwhile.c'].map((automation_id) => ({
          automation_id,
          status: 'passed',
        })),
      ).then((res) => res);
      // The batch is waiting for the other writer's row lock.
      await pollUntil(async () => {
        const [waiting] = await db.query(
          `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted
              AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())`,
        );
        return waiting.n > 0;
      }, 'the batch to wait for the other writer');
      await other.commitTransaction();
      await other.release();
      const res = await pending;
      expect(res.status).toBe(201);
      expect(res.body.created_test_cases).toBe(2);
      expect(res.body.data[1].test_case_id).toBe(theirs);
      expect(await casesOf(project.id)).toBe(3);
      expect(await stored(run.id)).toBe(3);
    });

    it('keeps every result and exact counts with 8 shards × 500 results at once', async () => {
      const { key, run } = await setup();
      const shards = Array.from({ length: 8 }, (_, shard) =>
        Array.from({ length: 500 }, (_, i) => ({
          automation_id: `shard${shard}.test${i}`,
          status: i % 10 === 0 ? 'failed' : i % 25 === 1 ? 'skipped' : 'passed',
          retries: i % 50 === 2 ? 1 : 0,
        })),
      );
      const responses = await Promise.all(
        shards.map((results) => submitResults(t, key, run.id, results)),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(await stored(run.id)).toBe(4000);
      // Per shard: 50 failed (i % 10 = 0), 20 skipped (i % 25 = 1), 430 passed, 10 flaky (i % 50 = 2).
      expect(await runCounts(key, run.id)).toEqual({
        total: 4000,
        passed: 3440,
        failed: 400,
        blocked: 0,
        skipped: 160,
        retest: 0,
        untested: 0,
        flaky: 80,
      });
    });
  });

  describe('storage', () => {
    it('keeps every stored result tied to its case in its run, and removes it with them', async () => {
      const { key, project, run } = await setup();
      const res = await submitResults(t, key, run.id, [
        { automation_id: 'tied.one', status: 'failed' },
        { automation_id: 'tied.one', status: 'passed' },
        { automation_id: 'tied.two', status: 'passed' },
      ]);
      expect(res.status).toBe(201);
      const [one, , two] = res.body.data as Array<{ test_case_id: string }>;
      const other = await createRun(t, key, project.id);

      // No result without its case's row in the run.
      await expect(
        db.query(
          `INSERT INTO test_result (organization_id, test_run_id, test_case_id, status)
           SELECT organization_id, $1, $2, 'passed' FROM test_run WHERE id = $1`,
          [other.id, one.test_case_id],
        ),
      ).rejects.toThrow(/foreign key/);

      // Deleting a case removes its results (history included); deleting the run the rest.
      await db.query('DELETE FROM test_case WHERE id = $1', [one.test_case_id]);
      expect(await stored(run.id)).toBe(1);
      await db.query('DELETE FROM test_run WHERE id = $1', [run.id]);
      expect(await stored(run.id)).toBe(0);
      const left = await db.query('SELECT 1 FROM test_run_case WHERE test_case_id = $1', [
        two.test_case_id,
      ]);
      expect(left).toHaveLength(0);
    });

    it('refuses a whole statement when one of its rows names a missing parent, changing nothing', async () => {
      const { key, org, project, run } = await setup();
      const res = await submitResults(t, key, run.id, [
        { automation_id: 'link.one', status: 'passed' },
      ]);
      const caseId = (res.body.data as Array<{ test_case_id: string }>)[0].test_case_id;
      const missing = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';
      const other = await createRun(t, key, project.id);
      const refused = async (sql: string, params: unknown[], message = /foreign key/) => {
        const error = await db.query(sql, params).then(
          () => null,
          (e: { code?: string; message: string }) => e,
        );
        expect(error?.code).toBe('23503');
        expect(error?.message).toMatch(message);
      };
      const runCaseRow = `($1::uuid, $2::uuid, gen_random_uuid(), 'passed', false)`;
      const insertRunCases = `INSERT INTO test_run_case (test_run_id, test_case_id, result_id, status, flaky) VALUES `;

      // One good row and one bad row in the same statement: neither is stored.
      await refused(
        `${insertRunCases} ${runCaseRow}, ($3::uuid, $2::uuid, gen_random_uuid(), 'passed', false)`,
        [other.id, caseId, missing],
      );
      await refused(
        `${insertRunCases} ${runCaseRow}, ($1::uuid, $3::uuid, gen_random_uuid(), 'passed', false)`,
        [other.id, caseId, missing],
      );
      expect(
        await db.query('SELECT 1 FROM test_run_case WHERE test_run_id = $1', [other.id]),
      ).toHaveLength(0);
      await refused(
        `INSERT INTO test_case (organization_id, project_id, title) VALUES ($1, $2, 'a'), ($1, $3, 'b')`,
        [org.id, project.id, missing],
      );
      expect(await casesOf(project.id)).toBe(1);
      await refused(
        `INSERT INTO test_result (organization_id, test_run_id, test_case_id, status)
         VALUES ($1, $2, $3, 'passed'), ($1, $4, $3, 'passed')`,
        [org.id, run.id, caseId, other.id],
      );
      expect(await stored(run.id)).toBe(1);

      // The keys that link rows cannot be moved.
      await refused(
        'UPDATE test_run_case SET test_run_id = $1 WHERE test_case_id = $2',
        [other.id, caseId],
        /cannot be changed/,
      );
      await refused(
        'UPDATE test_result SET test_case_id = $1 WHERE test_run_id = $2',
        [missing, run.id],
        /cannot be changed/,
      );
      await refused(
        'UPDATE test_case SET project_id = $1 WHERE id = $2',
        [missing, caseId],
        /cannot be changed/,
      );
      await refused(
        'UPDATE test_run SET id = $1 WHERE id = $2',
        [missing, run.id],
        /cannot be changed/,
      );
    });

    it('refuses deletes that would cascade outside READ COMMITTED, and truncating a referenced table', async () => {
      const { key, project, run } = await setup();
      await submitResults(t, key, run.id, [{ automation_id: 'guarded', status: 'passed' }]).expect(
        201,
      );
      const runner = db.createQueryRunner();
      await runner.connect();
      try {
        await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        const error = await runner.query('DELETE FROM test_run WHERE id = $1', [run.id]).then(
          () => null,
          (e: { code?: string }) => e,
        );
        expect(error?.code).toBe('40001');
        await runner.query('ROLLBACK');
      } finally {
        await runner.release();
      }
      const truncate = await db.query('TRUNCATE test_run_case').then(
        () => null,
        (e: { code?: string; message: string }) => e,
      );
      expect(truncate?.code).toBe('23503');
      expect(await stored(run.id)).toBe(1);
      expect(await casesOf(project.id)).toBe(1);
    });

    it('removes cases, their rows in runs and their results with their project', async () => {
      const { key, project, run } = await setup();
      await submitResults(t, key, run.id, [
        { automation_id: 'gone.one', status: 'failed' },
        { automation_id: 'gone.one', status: 'passed' },
        { automation_id: 'gone.two', status: 'passed' },
      ]).expect(201);
      expect(await stored(run.id)).toBe(3);
      await db.query('DELETE FROM project WHERE id = $1', [project.id]);
      expect(await casesOf(project.id)).toBe(0);
      expect(await stored(run.id)).toBe(0);
      expect(
        await db.query('SELECT 1 FROM test_run_case WHERE test_run_id = $1', [run.id]),
      ).toHaveLength(0);
    });
  });
});
