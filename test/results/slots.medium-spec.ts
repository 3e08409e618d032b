import { organizationCaller } from '../../src/common/caller.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { OrganizationsService } from '../../src/organizations/organizations.service.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import { ProjectsService } from '../../src/projects/projects.service.js';
import { ResultQuery } from '../../src/results/dto/result.dto.js';
import type { ResultItem } from '../../src/results/result-items.js';
import { resultItem } from '../factories/use-cases.js';
import { ResultsModule } from '../../src/results/results.module.js';
import { ResultsService } from '../../src/results/results.service.js';
import { CreateTestRun } from '../../src/test-run-lifecycle/create-test-run.usecase.js';
import { SubmitResults } from '../../src/test-run-lifecycle/submit-results.usecase.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

/**
 * CONTRACT §13 on the write path: a run keeps one current result per slot (test case,
 * configuration), counts count slots, and a result keeps its earlier attempts.
 */
describe('slots and attempts (service tier)', () => {
  let s: ServiceTier;
  beforeAll(async () => {
    s = await startServiceTier([
      OrganizationsModule,
      ProjectsModule,
      ResultsModule,
      TestRunLifecycleModule,
    ]);
  });
  afterAll(() => s.close());

  let counter = 0;
  async function run() {
    const org = await s
      .get(OrganizationsService)
      .create({ name: `Slots ${++counter}`, plan: 'pro' });
    const project = await s
      .get(ProjectsService)
      .create(org.id, { name: 'Web', key: `SLOT${counter}` });
    const created = await s.get(CreateTestRun).execute({
      caller: organizationCaller(org.id),
      source: 'api',
      run: { project_id: project.id, name: 'Nightly' },
    });
    return { organizationId: org.id, runId: created.id };
  }
  const item = resultItem;
  const submit = (r: { organizationId: string; runId: string }, items: ResultItem[]) =>
    s.get(SubmitResults).execute({
      caller: organizationCaller(r.organizationId),
      testRunId: r.runId,
      complete: false,
      items,
    });
  const list = (r: { organizationId: string; runId: string }, query: Partial<ResultQuery> = {}) =>
    s
      .get(ResultsService)
      .list(organizationCaller(r.organizationId), r.runId, Object.assign(new ResultQuery(), query));
  const counts = async (runId: string) =>
    (
      await s.db.query<Array<{ total: number; passed: number; failed: number }>>(
        'SELECT total, passed, failed FROM test_run WHERE id = $1',
        [runId],
      )
    )[0];

  it('keeps a failure in one configuration beside a pass in another: two slots, both counted', async () => {
    const r = await run();
    await submit(r, [
      item('cart.checkout', 'failed', { configuration: 'firefox', message: 'boom' }),
      item('cart.checkout', 'passed', { configuration: 'chromium' }),
    ]);
    expect(await counts(r.runId)).toEqual({ total: 2, passed: 1, failed: 1 });
    const page = await list(r);
    expect(page.data.map((x) => [x.configuration, x.status]).sort()).toEqual([
      ['chromium', 'passed'],
      ['firefox', 'failed'],
    ]);
    // One case, two slots.
    expect(new Set(page.data.map((x) => x.test_case_id)).size).toBe(1);
    // The failure's event names the configuration it failed in.
    const events = await s.db.query<Array<{ data: { configuration: string | null } }>>(
      `SELECT data FROM domain_event WHERE organization_id = $1 AND type = 'testcase.failed.v1'`,
      [r.organizationId],
    );
    expect(events.map((e) => e.data.configuration)).toEqual(['firefox']);
  });

  it('replaces a slot’s current result only with a later result of the same configuration', async () => {
    const r = await run();
    await submit(r, [item('a', 'failed', { configuration: 'firefox' }), item('a', 'passed')]);
    await submit(r, [item('a', 'passed', { configuration: 'firefox' })]);
    expect(await counts(r.runId)).toEqual({ total: 2, passed: 2, failed: 0 });
    const history = await list(r, { include_history: true });
    expect(history.data).toHaveLength(3);
  });

  it('filters the run’s results by configuration, and by none with an empty one', async () => {
    const r = await run();
    await submit(r, [
      item('a', 'passed', { configuration: 'firefox' }),
      item('a', 'failed'),
      item('b', 'passed', { configuration: 'firefox' }),
    ]);
    const firefox = await list(r, { configuration: 'firefox' });
    expect(firefox.pagination.total).toBe(2);
    expect(firefox.data.every((x) => x.configuration === 'firefox')).toBe(true);
    const none = await list(r, { configuration: '' });
    expect(none.data.map((x) => [x.configuration, x.status])).toEqual([[null, 'failed']]);
    expect(none.pagination.total).toBe(1);
  });

  it('keeps a result’s earlier attempts, oldest first, and shows [] when there were none', async () => {
    const r = await run();
    const attempts = [
      {
        status: 'failed' as const,
        durationMs: 10,
        message: 'first',
        failureType: 'E',
        stackTrace: 'at x',
      },
      {
        status: 'failed' as const,
        durationMs: 12,
        message: 'second',
        failureType: null,
        stackTrace: null,
      },
    ];
    const written = await submit(r, [
      item('flaky', 'passed', { attempts, retries: 2 }),
      item('plain', 'passed'),
    ]);
    expect(written.data[0].attempts).toEqual([
      {
        status: 'failed',
        duration_ms: 10,
        message: 'first',
        failure_type: 'E',
        stack_trace: 'at x',
      },
      {
        status: 'failed',
        duration_ms: 12,
        message: 'second',
        failure_type: null,
        stack_trace: null,
      },
    ]);
    expect(written.data[0].flaky).toBe(true);
    const page = await list(r);
    const byAttempts = page.data.map((x) => x.attempts.map((a) => a.message));
    expect(byAttempts.sort()).toEqual([[], ['first', 'second']]);
  });
});
