import { CASE_HISTORY } from '../../src/insights/insights.repository.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { useCases } from '../factories/use-cases.js';
import { nodesOf, rootOf, tableOf, type PlanNode } from '../support/query-plans.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

const RUNS = 30;
const PAGE = 5;

// Issue 29: the history's total is exact (CONTRACT §5), so each match is counted, but only the
// page's rows are read whole, with their run and build (the branch filter reads each run once).
describe('the plan of a case’s history', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startServiceTier([OrganizationsModule, ProjectsModule, TestRunLifecycleModule]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  it('counts every match from its result alone, and reads runs and builds for the page', async () => {
    const p = await the.project();
    for (let i = 0; i < RUNS; i++) {
      await the.submit(await the.run(p, { name: `run ${i}` }), [
        { automation_id: 'the.case', status: i % 3 === 0 ? 'failed' : 'passed' },
      ]);
    }
    const [{ id: caseId }] = await s.db.query(
      'SELECT id FROM test_case WHERE project_id = $1 AND automation_id = $2',
      [p.projectId, 'the.case'],
    );
    const parameters = [caseId, p.organizationId, null, null, null, null, null, PAGE, 10, null];
    const rows = await s.db.query(CASE_HISTORY, parameters);
    expect(rows).toHaveLength(PAGE);
    expect(rows[0]).toMatchObject({
      case_found: true,
      total: RUNS,
      test_run_name: `run ${RUNS - 11}`,
    });

    const [{ 'QUERY PLAN': plan }] = await s.db.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${CASE_HISTORY}`,
      parameters,
    );
    const nodes = nodesOf(rootOf(plan));
    // Counting the matches touches each one's result only: no run, no build.
    const matches = nodes.find((n) => n['Subplan Name'] === 'CTE matches');
    expect(matches).toBeDefined();
    const counted = nodesOf(matches as PlanNode).map(tableOf);
    expect(counted).toContain('test_result');
    expect(counted).not.toContain('test_run');
    expect(counted).not.toContain('build');
  });
});
