import { BuildsModule } from '../../src/builds/builds.module.js';
import { BuildsService } from '../../src/builds/builds.service.js';
import { organizationCaller } from '../../src/common/caller.js';
import { FlakyTestsQuery, type FlakyTestResponse } from '../../src/flakiness/dto/flaky-test.dto.js';
import { FlakinessModule } from '../../src/flakiness/flakiness.module.js';
import { FlakyTestsService } from '../../src/flakiness/flaky-tests.service.js';
import { QuarantineService } from '../../src/flakiness/quarantine.service.js';
import { OrganizationsModule } from '../../src/organizations/organizations.module.js';
import { ProjectsModule } from '../../src/projects/projects.module.js';
import type { TestCaseResponse } from '../../src/projects/dto/test-case.dto.js';
import { TestRunLifecycleModule } from '../../src/test-run-lifecycle/test-run-lifecycle.module.js';
import { useCases, type TierProject } from '../factories/use-cases.js';
import { startServiceTier, type ServiceTier } from '../support/service-tier.js';

/** What a run records for a case: `P` passed, `F` failed, `S` skipped, `R` passed on retry. */
const OUTCOMES: Record<string, object> = {
  P: { status: 'passed' },
  F: { status: 'failed' },
  S: { status: 'skipped' },
  R: { status: 'passed', retries: 2 },
};

let runClock = Date.UTC(2026, 0, 1);

// The flaky list's computation over seeded runs, on the real database without HTTP (moved from
// flaky-tests.e2e-spec.ts, which keeps the route's shape, parameters and scopes).
describe('the flaky list (service tier)', () => {
  let s: ServiceTier;
  let the: ReturnType<typeof useCases>;
  beforeAll(async () => {
    s = await startServiceTier([
      OrganizationsModule,
      ProjectsModule,
      BuildsModule,
      TestRunLifecycleModule,
      FlakinessModule,
    ]);
    the = useCases(s);
  });
  afterAll(() => s.close());

  /** A project whose test cases have the automation ids `names`. */
  async function flakyProject(names: string[]) {
    const p = await the.project();
    const cases: Record<string, TestCaseResponse> = {};
    for (const name of names)
      cases[name] = await the.testCase(p, { automation_id: name, title: `Case ${name}` });
    return { ...p, cases };
  }

  /**
   * One run per column of the sequences (`.`: no result), e.g. `{a: 'PF', b: 'FF'}` makes two
   * runs; each is submitted unless `status` says otherwise, on a build of `branch` when given.
   * Runs are dated a minute apart by SQL, so their order never rests on the clock's resolution.
   */
  async function runsOf(
    p: TierProject,
    sequences: Record<string, string>,
    options: { branch?: string; status?: 'in_progress' | 'submitted' | 'completed' } = {},
  ): Promise<void> {
    const length = Math.max(...Object.values(sequences).map((text) => text.length));
    for (let i = 0; i < length; i++) {
      const results = Object.entries(sequences)
        .filter(([, text]) => text[i] in OUTCOMES)
        .map(([name, text]) => ({ automation_id: name, ...OUTCOMES[text[i]] }));
      let buildId: string | undefined;
      if (options.branch !== undefined) {
        const build = await s
          .get(BuildsService)
          .create(
            p.organizationId,
            { name: 'build', project_id: p.projectId, branch: options.branch },
            'api',
          );
        buildId = (build.body as { id: string }).id;
      }
      const run = await the.run(p, buildId ? { build_id: buildId } : {});
      await the.submit(run, results);
      runClock += 60_000;
      await s.db.query('UPDATE test_run SET created_at = $2 WHERE id = $1', [
        run.runId,
        new Date(runClock),
      ]);
      const status = options.status ?? 'submitted';
      if (status !== 'in_progress') await the.transition(run, status);
    }
  }

  const flaky = (p: TierProject, query: Partial<FlakyTestsQuery> = {}) =>
    s
      .get(FlakyTestsService)
      .list(
        organizationCaller(p.organizationId),
        p.projectId,
        Object.assign(new FlakyTestsQuery(), query),
      );

  const summary = (items: FlakyTestResponse[]) =>
    items.map((i) => [i.automation_id, i.executions, i.flips, i.flip_rate, i.retried_passes]);

  describe('over eleven runs', () => {
    let fixture: Awaited<ReturnType<typeof flakyProject>>;
    beforeAll(async () => {
      fixture = await flakyProject(['a', 'b', 'c', 'd', 'e', 'f', 'h', 'i']);
      await runsOf(fixture, {
        a: 'PFPFPFPFPFP', // 10 flips in 11
        b: 'PPPPPPPPPPF', // 1 flip in 11: exactly 0.1
        c: 'PPPPPPPPPPP', // steady
        d: 'FFFFFFFFFFF', // steadily failing: not flaky
        e: 'PPPPPRPPPPP', // one pass after retries
        f: 'FPF........', // too few executions by default
        h: 'PFSSSSSSPFP', // skipped results are not executions
        i: 'FPFPPPPPPPR', // 3 flips in 11, and a retried pass
      });
      // An open run does not count.
      await runsOf(fixture, { a: 'F' }, { status: 'in_progress' });
    });

    it('counts executions, flips, flip rate and retried passes, most flaky first', async () => {
      const page = await flaky(fixture);
      expect(summary(page.data)).toEqual([
        ['a', 11, 10, 1, 0],
        ['h', 5, 4, 1, 0],
        ['i', 11, 3, 0.3, 1],
        ['b', 11, 1, 0.1, 0],
        ['e', 11, 0, 0, 1],
      ]);
      expect(page.data[0]).toEqual({
        test_case_id: fixture.cases.a.id,
        configuration: null,
        automation_id: 'a',
        title: 'Case a',
        executions: 11,
        flips: 10,
        flip_rate: 1,
        retried_passes: 0,
        last_status: 'passed',
        quarantined: false,
      });
      expect(page.data.map((i) => i.last_status)).toEqual([
        'passed',
        'passed',
        'passed',
        'failed',
        'passed',
      ]);
      expect(page.pagination).toEqual({ total: 5, limit: 25, offset: 0, has_more: false });
    });

    it('looks only at each case’s last `window` results', async () => {
      expect(summary((await flaky(fixture, { window: 5 })).data)).toEqual([
        ['a', 5, 4, 1, 0],
        ['h', 5, 4, 1, 0],
        ['b', 5, 1, 0.25, 0],
        ['i', 5, 0, 0, 1],
      ]);
    });

    it('lists cases with `min_executions` or more', async () => {
      expect(summary((await flaky(fixture, { min_executions: 2, window: 3 })).data)).toEqual([
        ['a', 3, 2, 1, 0],
        ['f', 3, 2, 1, 0],
        ['h', 3, 2, 1, 0],
        ['b', 3, 1, 0.5, 0],
        ['i', 3, 0, 0, 1],
      ]);
      expect((await flaky(fixture, { min_executions: 12 })).data).toEqual([]);
    });

    it('rounds the flip rate to four decimals', async () => {
      const page = await flaky(fixture, { window: 4, min_executions: 4 });
      // i's last four: P P P R (no flip, one retried pass); b's: P P P F.
      expect(summary(page.data).find(([name]) => name === 'b')).toEqual(['b', 4, 1, 0.3333, 0]);
    });

    it('pages as every list does', async () => {
      const page = await flaky(fixture, { limit: 2, offset: 1 });
      expect(page.data.map((i) => i.automation_id)).toEqual(['h', 'i']);
      expect(page.pagination).toEqual({ total: 5, limit: 2, offset: 1, has_more: true });
      expect(await flaky(fixture, { offset: 10 })).toEqual({
        data: [],
        pagination: { total: 5, limit: 25, offset: 10, has_more: false },
      });
    });

    it('flags cases in quarantine', async () => {
      await s
        .get(QuarantineService)
        .quarantine(
          organizationCaller(fixture.organizationId),
          fixture.projectId,
          fixture.cases.i.id,
          { reason: 'flaky on CI' },
        );
      const page = await flaky(fixture);
      expect(page.data.filter((i) => i.quarantined).map((i) => i.automation_id)).toEqual(['i']);
    });
  });

  it('looks only at runs whose build is on `branch`', async () => {
    const p = await flakyProject(['x', 'y']);
    await runsOf(p, { x: 'PPPPP', y: 'PFPFP' }, { branch: 'main' });
    await runsOf(p, { x: 'FPFPF', y: 'PPPPP' }, { branch: 'feature/z' });
    await runsOf(p, { x: 'FPFPF' });
    expect(summary((await flaky(p, { branch: 'main' })).data)).toEqual([['y', 5, 4, 1, 0]]);
    expect(summary((await flaky(p, { branch: 'feature/z' })).data)).toEqual([['x', 5, 4, 1, 0]]);
    expect(summary((await flaky(p, { window: 15 })).data)).toEqual([
      ['x', 15, 9, 0.6429, 0],
      ['y', 10, 4, 0.4444, 0],
    ]);
    expect((await flaky(p, { branch: 'none' })).data).toEqual([]);
  });
});
