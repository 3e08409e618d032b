import { ReleasesService } from '../../src/releases/releases.service.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ReleaseProgressModule } from '../../src/release-progress/release-progress.module.js';
import { LATEST_STATUS_COUNTS } from '../../src/results/release-results.repository.js';
import { BACKFILL } from '../../src/results/release-slots.repository.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { useCases } from '../factories/use-cases.js';
import { nodesOf, rootOf, tableOf, type PlanNode } from '../support/query-plans.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

const RUNS_PER_OTHER_RELEASE = 15;
const CASES_PER_OTHER_RUN = 200;

// Issue 29: a release's progress costs what the release holds, not what the table holds. Its
// statement is planned here beside other releases' runs (6,000 current results, 400 slots),
// with statistics stale (the rows just loaded, as autovacuum may never come) and then fresh:
// it reads the release's own slots in `release_slot`, and no run's rows at all.
describe('the plan of a release’s progress', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startServiceTier([
      OrganizationsModule,
      ProjectsModule,
      TestRunLifecycleModule,
      ReleaseProgressModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  it('reads only the release’s own slots, by index, before and after ANALYZE', async () => {
    const p = await the.project();
    const releases = s.get(ReleasesService);
    const release = await releases.create(p.projectId, { name: 'Measured' });
    const items = () =>
      Array.from({ length: 40 }, (_, i) => ({
        automation_id: `case.${i}`,
        status: i % 5 === 0 ? ('failed' as const) : ('passed' as const),
      }));
    for (const name of ['first', 'second']) {
      await the.submit(await the.run(p, { release_id: release.id, name }), items());
    }
    // Two runs of the same 40 cases: 40 slots.
    const own = items().length;

    // Other releases' runs, many times the measured one's rows, loaded straight with SQL.
    await s.db.query(
      `INSERT INTO test_case (organization_id, project_id, title)
       SELECT $1, $2, 'other ' || g FROM generate_series(1, $3::int) g`,
      [p.organizationId, p.projectId, CASES_PER_OTHER_RUN],
    );
    const otherReleases: string[] = [];
    for (const name of ['Other A', 'Other B']) {
      const other = await releases.create(p.projectId, { name });
      otherReleases.push(other.id);
      await s.db.query(
        `INSERT INTO test_run (organization_id, project_id, release_id, name, status, source)
         SELECT $1, $2, $3, 'other ' || g, 'completed', 'api' FROM generate_series(1, $4::int) g`,
        [p.organizationId, p.projectId, other.id, RUNS_PER_OTHER_RELEASE],
      );
      await s.db.query(
        `WITH slots AS (
           INSERT INTO test_run_case (test_run_id, test_case_id, result_id, status, flaky, result_created_at)
           SELECT r.id, c.id, gen_random_uuid(), 'passed', false, now()
             FROM test_run r CROSS JOIN test_case c
            WHERE r.release_id = $2 AND c.project_id = $1 AND c.title LIKE 'other %'
           RETURNING *
         )
         INSERT INTO test_result (id, organization_id, test_run_id, test_case_id, status, created_at)
         SELECT result_id, $3, test_run_id, test_case_id, status, result_created_at FROM slots`,
        [p.projectId, other.id, p.organizationId],
      );
    }
    const [{ others }] = await s.db.query(
      `SELECT count(*)::int AS others FROM test_run_case c JOIN test_run r ON r.id = c.test_run_id
        WHERE r.release_id <> $1 AND r.project_id = $2`,
      [release.id, p.projectId],
    );
    expect(others).toBe(2 * RUNS_PER_OTHER_RELEASE * CASES_PER_OTHER_RUN);
    // Their slots, as a bulk load fills them (the service keeps them as it writes results).
    await s.db.query(BACKFILL, [otherReleases]);
    const [{ slots }] = await s.db.query(
      `SELECT count(*)::int AS slots FROM release_slot WHERE release_id = ANY($1::uuid[])`,
      [otherReleases],
    );
    expect(slots).toBe(2 * CASES_PER_OTHER_RUN);

    const planned = async () => {
      const [{ 'QUERY PLAN': plan }] = await s.db.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${LATEST_STATUS_COUNTS}`,
        [p.organizationId, [release.id]],
      );
      return nodesOf(rootOf(plan));
    };
    const check = (nodes: PlanNode[]) => {
      const slots = nodes.filter((n) => n['Relation Name'] === 'release_slot');
      expect(slots.length).toBeGreaterThan(0);
      // By index only, never a scan of the table (parallel or not).
      expect(slots.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(nodes.map((n) => n['Node Type'])).not.toContain('Gather');
      // No run's rows, and no result, are read: the kept slots carry their status.
      const read = nodes.map(tableOf).filter((name) => name !== undefined);
      expect(read.filter((name) => name !== 'release_slot')).toEqual([]);
      // The rows it read (and any it read and threw away) are the release's own slots.
      const examined = slots.reduce(
        (sum, n) =>
          sum +
          (n['Actual Rows'] +
            (n['Rows Removed by Filter'] ?? 0) +
            (n['Rows Removed by Index Recheck'] ?? 0)) *
            n['Actual Loops'],
        0,
      );
      expect(examined).toBe(own);
    };

    check(await planned());
    await s.db.query('ANALYZE test_run, test_run_case, test_result, test_case, release_slot');
    check(await planned());
  });
});
