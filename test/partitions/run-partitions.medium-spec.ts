import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { organizationCaller } from '../../src/common/caller.js';
import { copyInto } from '../../src/database/copy.js';
import { RunPartitionLookup } from '../../src/database/run-partition-lookup.js';
import { Transactions } from '../../src/database/transactions.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { PartitionKeeper } from '../../src/partitions/partition-keeper.js';
import { PartitionKeeperModule } from '../../src/partitions/partitions.module.js';
import { MONTHS_AHEAD, partitionName, runMonthOf } from '../../src/database/run-months.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ResultQuery } from '../../src/results/dto/result.dto.js';
import { ResultsModule } from '../../src/results/results.module.js';
import { ResultsService } from '../../src/results/results.service.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { useCases, type TierRun } from '../factories/use-cases.js';
import type { ServiceTier } from '../support/service-tier.js';
import {
  monthsFrom,
  partitionsOf,
  partitionsOfRun,
  runMadeAt,
  startTierOnOwnDatabase,
} from './month-runs.js';

const DAY_MS = 24 * 60 * 60 * 1000;

// Issue 29: the worker keeps the months ahead partitioned, and a month made late takes the
// rows that waited for it in the default partition.
describe('the months’ partitions, made ahead by the worker (service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startTierOnOwnDatabase('run_partitions', [
      OrganizationsModule,
      ProjectsModule,
      ResultsModule,
      TestRunLifecycleModule,
      PartitionKeeperModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  const thisMonth = runMonthOf(Date.now());
  const keeper = () => s.get(PartitionKeeper);
  const bothTables = async () => ({
    test_result: await partitionsOf(s.db, 'test_result'),
    test_run_case: await partitionsOf(s.db, 'test_run_case'),
  });
  const list = (r: TierRun) =>
    s
      .get(ResultsService)
      .list(
        organizationCaller(r.organizationId),
        r.runId,
        Object.assign(new ResultQuery(), { limit: 100, offset: 0 }),
      );

  it('makes the missing months of both tables from now’s to two after it, once', async () => {
    const first = monthsFrom(thisMonth, 5);
    const wanted = [first, monthsFrom(thisMonth, 6), monthsFrom(thisMonth, 7)];
    expect(wanted).toHaveLength(MONTHS_AHEAD + 1);
    const before = await bothTables();

    const made = await keeper().createAhead(new Date(first.start.getTime() + 3 * DAY_MS));
    expect(made.map((m) => m.suffix)).toEqual(wanted.map((m) => m.suffix));
    const after = await bothTables();
    for (const table of ['test_result', 'test_run_case'] as const) {
      expect(after[table]).toEqual(
        [...before[table], ...wanted.map((m) => partitionName(table, m))].sort(),
      );
    }
    // Their bounds are the months' ranges of run ids.
    const [bound] = await s.db.query(
      `SELECT pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_class c WHERE c.relname = $1`,
      [partitionName('test_run_case', first)],
    );
    expect(bound.bound).toBe(`FOR VALUES FROM ('${first.from}') TO ('${first.to}')`);

    expect(await keeper().createAhead(new Date(first.start.getTime() + 3 * DAY_MS))).toEqual([]);
    expect(await bothTables()).toEqual(after);
  });

  it('makes each month once when two replicas make them at the same time', async () => {
    const first = monthsFrom(thisMonth, 9);
    const at = new Date(first.start.getTime() + DAY_MS);
    const [one, two] = await Promise.all([keeper().createAhead(at), keeper().createAhead(at)]);
    expect([...one, ...two].map((m) => m.suffix).sort()).toEqual(
      [first, monthsFrom(thisMonth, 10), monthsFrom(thisMonth, 11)].map((m) => m.suffix),
    );
    const names = await partitionsOf(s.db, 'test_result');
    expect(names.filter((name) => name.endsWith(first.suffix))).toEqual([
      partitionName('test_result', first),
    ]);
  });

  it('keeps a run’s rows in the default partition until its month is made, then moves them there', async () => {
    const month = monthsFrom(thisMonth, 14);
    const p = await the.project();
    const run = await runMadeAt(s.db, p, new Date(month.start.getTime() + 5 * DAY_MS + 1234));
    const other = await the.run(p);
    await the.submit(run, [
      { automation_id: 'a', status: 'passed' },
      { automation_id: 'b', status: 'failed', message: 'boom' },
      { automation_id: 'b', status: 'passed', configuration: 'firefox' },
    ]);
    await the.submit(run, [{ automation_id: 'a', status: 'failed', message: 'again' }]);
    await the.submit(other, [{ automation_id: 'a', status: 'passed' }]);
    expect(await partitionsOfRun(s.db, run.runId)).toEqual({
      test_result: ['test_result_default'],
      test_run_case: ['test_run_case_default'],
    });
    const before = await list(run);
    expect(before.pagination.total).toBe(3);
    const [counts] = await s.db.query(`SELECT total, passed, failed FROM test_run WHERE id = $1`, [
      run.runId,
    ]);
    expect(counts).toEqual({ total: 3, passed: 1, failed: 2 });
    const otherBefore = await partitionsOfRun(s.db, other.runId);

    const made = await keeper().createAhead(new Date(month.start.getTime() + DAY_MS));
    expect(made.map((m) => m.suffix)).toContain(month.suffix);

    expect(await partitionsOfRun(s.db, run.runId)).toEqual({
      test_result: [partitionName('test_result', month)],
      test_run_case: [partitionName('test_run_case', month)],
    });
    const [rows] = await s.db.query(
      `SELECT (SELECT count(*)::int FROM test_result WHERE test_run_id = $1) AS results,
              (SELECT count(*)::int FROM test_run_case WHERE test_run_id = $1) AS slots,
              (SELECT count(*)::int FROM test_result_default) AS left_behind`,
      [run.runId],
    );
    expect(rows).toEqual({ results: 4, slots: 3, left_behind: 0 });
    expect(await list(run)).toEqual(before);
    // A run of this month stays where it was.
    expect(await partitionsOfRun(s.db, other.runId)).toEqual(otherBefore);
    // The moved slots still take results, checked against their month's partition.
    await the.submit(run, [{ automation_id: 'b', status: 'passed' }]);
    expect((await list(run)).pagination.total).toBe(3);
    const [after] = await s.db.query(`SELECT total, passed, failed FROM test_run WHERE id = $1`, [
      run.runId,
    ]);
    expect(after).toEqual({ total: 3, passed: 2, failed: 1 });
  });

  it('copies a run’s new rows into its month’s partition once it is made, whose checks refuse rows without their parents', async () => {
    const month = monthsFrom(thisMonth, 20);
    const p = await the.project();
    const run = await runMadeAt(s.db, p, new Date(month.start.getTime() + 2 * DAY_MS));
    const transactions = s.get(Transactions);
    const lookup = new RunPartitionLookup(transactions);
    const copy = (table: 'test_result' | 'test_run_case') =>
      `COPY ${table} (test_run_id, test_case_id, configuration) FROM STDIN`;
    const target = (table: 'test_result' | 'test_run_case', runId = run.runId) =>
      transactions.begin(async () => (await lookup.of(table, runId))(copy(table)));

    // No partition for the month yet: the partitioned table routes the rows (to the default
    // partition), and the month is looked for again the next time.
    expect(await target('test_run_case')).toBe(copy('test_run_case'));
    await keeper().createAhead(new Date(month.start.getTime() + DAY_MS));
    const partition = partitionName('test_run_case', month);
    expect(await target('test_run_case')).toBe(
      `COPY "${partition}" (test_run_id, test_case_id, configuration) FROM STDIN`,
    );
    // Found once, remembered: the next look-up reads nothing.
    const asked = await transactions.begin(async (manager) => {
      const query = jest.spyOn(manager, 'query');
      await lookup.of('test_run_case', run.runId);
      return query.mock.calls.length;
    });
    expect(asked).toBe(0);
    // A run whose id is not a UUIDv7 has no month: the partitioned table routes its rows.
    expect(await target('test_result', randomUUID())).toBe(copy('test_result'));

    // The partitions the keeper makes check the rows copied into them as the tables do.
    const refusal = (table: 'test_result' | 'test_run_case', line: string) =>
      transactions
        .begin(async () => {
          const into = await lookup.of(table, run.runId);
          const columns =
            table === 'test_run_case'
              ? 'test_run_id, test_case_id, configuration, result_id, status, flaky, result_created_at'
              : 'organization_id, test_run_id, test_case_id, configuration, status';
          await copyInto(transactions, into(`COPY ${table} (${columns}) FROM STDIN`), [line]);
        })
        .then(
          () => null,
          (e: { code?: string; message: string }) => e,
        );
    const slotOfUnknownCase = `${run.runId}\t${randomUUID()}\t\t${randomUUID()}\tpassed\tf\t2030-01-01\n`;
    expect(await refusal('test_run_case', slotOfUnknownCase)).toMatchObject({
      code: '23503',
      message: expect.stringContaining(`"${partition}"`),
    });
    const resultWithoutSlot = `${p.organizationId}\t${run.runId}\t${randomUUID()}\t\tpassed\n`;
    expect(await refusal('test_result', resultWithoutSlot)).toMatchObject({
      code: '23503',
      message: expect.stringContaining(`"${partitionName('test_result', month)}"`),
    });
    const [left] = await s.db.query(
      `SELECT (SELECT count(*)::int FROM test_result WHERE test_run_id = $1) AS results,
              (SELECT count(*)::int FROM test_run_case WHERE test_run_id = $1) AS slots`,
      [run.runId],
    );
    expect(left).toEqual({ results: 0, slots: 0 });
  });
});
