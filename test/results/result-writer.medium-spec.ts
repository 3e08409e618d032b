import { partitionOfRun } from '../../src/database/run-months.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { useCases } from '../factories/use-cases.js';
import { pollUntil } from '../support/service-control.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

const UNKNOWN_ID = '0b7c4a8e-8d4e-4a51-9b0c-3f1d2e4a5b6c';

// How a batch's cases are found or created, and what the tables keep of the results, on the
// real database without HTTP (moved from results.e2e-spec.ts: nothing here is HTTP's).
describe('writing results (service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startServiceTier([OrganizationsModule, ProjectsModule, TestRunLifecycleModule]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  const one = async (text: string, params: unknown[]) => (await s.db.query(text, params))[0];
  const stored = async (runId: string) =>
    (await one('SELECT count(*)::int AS n FROM test_result WHERE test_run_id = $1', [runId])).n;
  const casesOf = async (projectId: string) =>
    (await one('SELECT count(*)::int AS n FROM test_case WHERE project_id = $1', [projectId])).n;
  const counts = (runId: string) =>
    one(
      `SELECT total, passed, failed, blocked, skipped, retest, untested, flaky
         FROM test_run WHERE id = $1`,
      [runId],
    );
  const caseIds = (answer: { data: Array<{ test_case_id: string }> }) =>
    answer.data.map((r) => r.test_case_id);

  describe('cases of a batch', () => {
    it('creates a new automation id once when two batches race on it', async () => {
      const p = await the.project();
      const runs = [await the.run(p), await the.run(p)];
      const batch = () =>
        Array.from({ length: 50 }, (_, i) => ({ automation_id: `race.${i}`, status: 'passed' }));
      const answers = await Promise.all(runs.map((r) => the.submit(r, batch())));
      expect(answers[0].created_test_cases + answers[1].created_test_cases).toBe(50);
      expect(await casesOf(p.projectId)).toBe(50);
      expect(caseIds(answers[0])).toEqual(caseIds(answers[1]));
    });

    it('creates and then finds cases whose automation ids hold quotes, backslashes, braces and tabs', async () => {
      const r = await the.run();
      const names = ['say "hi"', 'c:\\dir\\test', 'NULL', 'x,y} {z', 'tab\there', 'line\nbreak'];
      const batch = () => names.map((automation_id) => ({ automation_id, status: 'passed' }));
      const first = await the.submit(r, batch());
      expect(first.created_test_cases).toBe(names.length);
      const again = await the.submit(r, batch());
      expect(again.created_test_cases).toBe(0);
      expect(caseIds(again)).toEqual(caseIds(first));
      const rows: Array<{ automation_id: string; title: string }> = await s.db.query(
        'SELECT automation_id, title FROM test_case WHERE project_id = $1 ORDER BY automation_id',
        [r.projectId],
      );
      expect(rows.map((row) => row.automation_id)).toEqual([...names].sort());
      expect(rows.every((row) => row.title === row.automation_id)).toBe(true);
    });

    it('finds the cases of earlier batches again, and recreates one deleted by hand since', async () => {
      const r = await the.run();
      const batch = () =>
        ['kept.one', 'kept.two'].map((automation_id) => ({ automation_id, status: 'passed' }));
      const created = await the.submit(r, batch());
      expect(created.created_test_cases).toBe(2);
      const found = await the.submit(r, batch());
      expect(found.created_test_cases).toBe(0);
      expect(caseIds(found)).toEqual(caseIds(created));
      const [deleted] = caseIds(found);

      // Deleted behind the service's back (the process may still remember its id): the
      // batch is stored anyway, with a new case for the deleted automation id.
      await s.db.query('DELETE FROM test_case WHERE id = $1', [deleted]);
      const recreated = await the.submit(r, batch());
      expect(recreated.created_test_cases).toBe(1);
      expect(recreated.data[0].test_case_id).not.toBe(deleted);
      expect(await casesOf(r.projectId)).toBe(2);
      // Each case's current result: the recreated case's and kept.two's.
      const current = await s.db.query(
        'SELECT test_case_id FROM test_run_case WHERE test_run_id = $1',
        [r.runId],
      );
      expect(current.map((c: { test_case_id: string }) => c.test_case_id).sort()).toEqual(
        caseIds(recreated).sort(),
      );
    });

    it('creates the cases it does not remember in a known project, finding the ones that exist', async () => {
      const r = await the.run();
      await the.submit(r, [{ automation_id: 'seen.a', status: 'passed' }]);
      await the.submit(r, [{ automation_id: 'seen.a', status: 'passed' }]);
      // Created elsewhere (the projects' service), so the writer does not remember it.
      const existing = await the.testCase(r, { automation_id: 'elsewhere.b' });
      const answer = await the.submit(
        r,
        ['seen.a', 'elsewhere.b', 'brand.new.c'].map((automation_id) => ({
          automation_id,
          status: 'failed',
        })),
      );
      expect(answer.created_test_cases).toBe(1);
      expect(answer.data[1].test_case_id).toBe(existing.id);
      expect(await casesOf(r.projectId)).toBe(3);
      expect(await counts(r.runId)).toMatchObject({ total: 3, failed: 3 });
    });

    it('uses a case created by another transaction while the batch was creating it', async () => {
      const r = await the.run();
      // Another writer holds an uncommitted case with one of the batch's new automation ids:
      // the batch's bulk load of new cases waits for it, then meets its unique key.
      const other = s.db.createQueryRunner();
      await other.connect();
      await other.startTransaction();
      const [{ id: theirs }] = await other.query(
        `INSERT INTO test_case (organization_id, project_id, title, automation_id)
         VALUES ($1, $2, 'Theirs', 'meanwhile.b') RETURNING id`,
        [r.organizationId, r.projectId],
      );
      const pending = the.submit(
        r,
        ['meanwhile.a', 'meanwhile.b', 'meanwhile.c'].map((automation_id) => ({
          automation_id,
          status: 'passed',
        })),
      );
      // Settled at once, so a refusal while the other writer is waited for is not unhandled.
      const settled = pending.then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
      await pollUntil(async () => {
        const [waiting] = await s.db.query(
          `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted
              AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())`,
        );
        return waiting.n > 0;
      }, 'the batch to wait for the other writer');
      await other.commitTransaction();
      await other.release();
      const outcome = await settled;
      if (!('answer' in outcome)) throw outcome.error;
      expect(outcome.answer.created_test_cases).toBe(2);
      expect(outcome.answer.data[1].test_case_id).toBe(theirs);
      expect(await casesOf(r.projectId)).toBe(3);
      expect(await stored(r.runId)).toBe(3);
    });

    it('keeps every result and exact counts with 8 shards × 500 results at once', async () => {
      const r = await the.run();
      const shards = Array.from({ length: 8 }, (_, shard) =>
        Array.from({ length: 500 }, (_, i) => ({
          automation_id: `shard${shard}.test${i}`,
          status: i % 10 === 0 ? 'failed' : i % 25 === 1 ? 'skipped' : 'passed',
          retries: i % 50 === 2 ? 1 : 0,
        })),
      );
      const answers = await Promise.all(shards.map((results) => the.submit(r, results)));
      expect(answers.map((a) => a.accepted)).toEqual(Array(8).fill(500));
      expect(await stored(r.runId)).toBe(4000);
      // Per shard: 50 failed (i % 10 = 0), 20 skipped (i % 25 = 1), 430 passed, 10 flaky (i % 50 = 2).
      expect(await counts(r.runId)).toEqual({
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
      const r = await the.run();
      const answer = await the.submit(r, [
        { automation_id: 'tied.one', status: 'failed' },
        { automation_id: 'tied.one', status: 'passed' },
        { automation_id: 'tied.two', status: 'passed' },
      ]);
      const [one, , two] = caseIds(answer);
      const other = await the.run(r);

      // No result without its case's row in the run.
      await expect(
        s.db.query(
          `INSERT INTO test_result (organization_id, test_run_id, test_case_id, status)
           SELECT organization_id, $1, $2, 'passed' FROM test_run WHERE id = $1`,
          [other.runId, one],
        ),
      ).rejects.toThrow(/foreign key/);

      // Deleting a case removes its results (history included); deleting the run the rest.
      await s.db.query('DELETE FROM test_case WHERE id = $1', [one]);
      expect(await stored(r.runId)).toBe(1);
      await s.db.query('DELETE FROM test_run WHERE id = $1', [r.runId]);
      expect(await stored(r.runId)).toBe(0);
      const left = await s.db.query('SELECT 1 FROM test_run_case WHERE test_case_id = $1', [two]);
      expect(left).toHaveLength(0);
    });

    it('refuses a whole statement when one of its rows names a missing parent, changing nothing', async () => {
      const r = await the.run();
      const [caseId] = caseIds(
        await the.submit(r, [{ automation_id: 'link.one', status: 'passed' }]),
      );
      const other = (await the.run(r)).runId;
      const refused = async (text: string, params: unknown[], message = /foreign key/) => {
        const error = await s.db.query(text, params).then(
          () => null,
          (e: { code?: string; message: string }) => e,
        );
        expect(error?.code).toBe('23503');
        expect(error?.message).toMatch(message);
      };
      const runCaseRow = `($1::uuid, $2::uuid, gen_random_uuid(), 'passed', false, now())`;
      const insertRunCases = `INSERT INTO test_run_case (test_run_id, test_case_id, result_id, status, flaky, result_created_at) VALUES `;

      // One good row and one bad row in the same statement: neither is stored.
      await refused(
        `${insertRunCases} ${runCaseRow}, ($3::uuid, $2::uuid, gen_random_uuid(), 'passed', false, now())`,
        [other, caseId, UNKNOWN_ID],
      );
      await refused(
        `${insertRunCases} ${runCaseRow}, ($1::uuid, $3::uuid, gen_random_uuid(), 'passed', false, now())`,
        [other, caseId, UNKNOWN_ID],
      );
      expect(
        await s.db.query('SELECT 1 FROM test_run_case WHERE test_run_id = $1', [other]),
      ).toHaveLength(0);
      await refused(
        `INSERT INTO test_case (organization_id, project_id, title) VALUES ($1, $2, 'a'), ($1, $3, 'b')`,
        [r.organizationId, r.projectId, UNKNOWN_ID],
      );
      expect(await casesOf(r.projectId)).toBe(1);
      await refused(
        `INSERT INTO test_result (organization_id, test_run_id, test_case_id, status)
         VALUES ($1, $2, $3, 'passed'), ($1, $4, $3, 'passed')`,
        [r.organizationId, r.runId, caseId, other],
      );
      expect(await stored(r.runId)).toBe(1);
      // The writers copy a run's new rows straight into its month's partition, whose own
      // triggers check them alike.
      await refused(
        `INSERT INTO "${partitionOfRun('test_result', r.runId)}" (organization_id, test_run_id, test_case_id, status)
         VALUES ($1, $2, $3, 'passed'), ($1, $4, $3, 'passed')`,
        [r.organizationId, r.runId, caseId, other],
      );
      await refused(
        `INSERT INTO "${partitionOfRun('test_run_case', other)}" (test_run_id, test_case_id, result_id, status, flaky, result_created_at)
         VALUES ${runCaseRow}`,
        [other, UNKNOWN_ID],
      );
      expect(await stored(r.runId)).toBe(1);

      // The keys that link rows cannot be moved.
      await refused(
        'UPDATE test_run_case SET test_run_id = $1 WHERE test_case_id = $2',
        [other, caseId],
        /cannot be changed/,
      );
      await refused(
        'UPDATE test_result SET test_case_id = $1 WHERE test_run_id = $2',
        [UNKNOWN_ID, r.runId],
        /cannot be changed/,
      );
      await refused(
        'UPDATE test_case SET project_id = $1 WHERE id = $2',
        [UNKNOWN_ID, caseId],
        /cannot be changed/,
      );
      await refused(
        'UPDATE test_run SET id = $1 WHERE id = $2',
        [UNKNOWN_ID, r.runId],
        /cannot be changed/,
      );
    });

    it('refuses deletes that would cascade outside READ COMMITTED, and truncating a referenced table', async () => {
      const r = await the.run();
      await the.submit(r, [{ automation_id: 'guarded', status: 'passed' }]);
      const runner = s.db.createQueryRunner();
      await runner.connect();
      try {
        await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        const error = await runner.query('DELETE FROM test_run WHERE id = $1', [r.runId]).then(
          () => null,
          (e: { code?: string }) => e,
        );
        expect(error?.code).toBe('40001');
        await runner.query('ROLLBACK');
      } finally {
        await runner.release();
      }
      const truncate = await s.db.query('TRUNCATE test_run_case').then(
        () => null,
        (e: { code?: string; message: string }) => e,
      );
      expect(truncate?.code).toBe('23503');
      expect(await stored(r.runId)).toBe(1);
      expect(await casesOf(r.projectId)).toBe(1);
    });

    it('removes cases, their rows in runs and their results with their project', async () => {
      const r = await the.run();
      await the.submit(r, [
        { automation_id: 'gone.one', status: 'failed' },
        { automation_id: 'gone.one', status: 'passed' },
        { automation_id: 'gone.two', status: 'passed' },
      ]);
      expect(await stored(r.runId)).toBe(3);
      await s.db.query('DELETE FROM project WHERE id = $1', [r.projectId]);
      expect(await casesOf(r.projectId)).toBe(0);
      expect(await stored(r.runId)).toBe(0);
      expect(
        await s.db.query('SELECT 1 FROM test_run_case WHERE test_run_id = $1', [r.runId]),
      ).toHaveLength(0);
    });
  });
});
