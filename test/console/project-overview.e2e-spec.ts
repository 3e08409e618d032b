import type { APIRequestContext } from 'playwright-core';
import { expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { json, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';

const WIDTHS = [1280, 800] as const;
const NAVIGATIONS = 5;
/** Generous: a shared 2-core machine, a cold browser; the page reads a few rows per section. */
const FIRST_CONTENT_BOUND_MS = 3_000;
/** "Nightly" runs on main, oldest first. */
const MAIN_RUNS = 8;

/**
 * Run `i` of "Nightly" on main, ten cases: seven always pass; `shop.Pay.card` fails from the
 * fourth run on (one cause, its code changing), `shop.Search.flaky` fails in every other run
 * (the most flaky test) and `shop.Cart.new` fails in the last only (a new failure).
 */
function mainResults(i: number) {
  const results: Array<{ automation_id: string; status: string; message?: string }> = [];
  for (let c = 0; c < 7; c++)
    results.push({ automation_id: `shop.Stable.c${c}`, status: 'passed' });
  results.push(
    i >= 3
      ? { automation_id: 'shop.Pay.card', status: 'failed', message: `card declined (code 40${i})` }
      : { automation_id: 'shop.Pay.card', status: 'passed' },
  );
  results.push(
    i % 2 === 0
      ? { automation_id: 'shop.Search.flaky', status: 'failed', message: 'element not clickable' }
      : { automation_id: 'shop.Search.flaky', status: 'passed' },
  );
  results.push(
    i === MAIN_RUNS - 1
      ? { automation_id: 'shop.Cart.new', status: 'failed', message: 'basket is empty' }
      : { automation_id: 'shop.Cart.new', status: 'passed' },
  );
  return results;
}

/** Each main run's failures and pass rate, as the trend must show them. */
const failuresOf = (i: number) => mainResults(i).filter((r) => r.status === 'failed').length;
const passRateOf = (i: number) =>
  new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(
    (10 - failuresOf(i)) / 10,
  );

/**
 * A project's overview, its first page, in a real browser against the built service, with runs
 * a pipeline sent through the public API: the latest run of each name with its verdict, the
 * trends of the latest series (charts named for what they show, a value on hover, the numbers
 * as a table), what changed since the previous run, the failures that recur and the most flaky
 * tests. Screenshots go to docs/console/ (with UPDATE_SCREENSHOTS=1); the time to the first
 * useful content (the latest runs' first row) is printed.
 */
describe('web console: a project’s overview', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let pipeline: Record<string, string>;
  let projectId: string;
  const mainRunIds: string[] = [];
  let smokeId: string;
  let featureId: string;

  /** A run with `results`, on a new build of `branch` (none: no build), completed unless `open`. */
  async function run(
    name: string,
    results: Array<{ automation_id: string; status: string; message?: string }>,
    { branch, number, open = false }: { branch?: string; number?: number; open?: boolean } = {},
  ): Promise<string> {
    let buildId: string | undefined;
    if (branch) {
      ({ id: buildId } = await json<{ id: string }>(
        outside.post('/api/v1/builds', {
          headers: pipeline,
          data: {
            project_id: projectId,
            name: `shop ${branch} #${number ?? 0}`,
            branch,
            build_number: String(number ?? 0),
            commit_sha: `${String(number ?? 0).padStart(2, '0')}c0ffee`.padEnd(40, 'a'),
          },
        }),
        202,
      ));
    }
    const created = await json<{ id: string }>(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: projectId, name, ...(buildId ? { build_id: buildId } : {}) },
      }),
    );
    await json(
      outside.post(`/api/v1/testruns/${created.id}/results`, {
        headers: pipeline,
        data: { results },
      }),
    );
    if (!open) {
      await json(
        outside.patch(`/api/v1/testruns/${created.id}`, {
          headers: pipeline,
          data: { status: 'completed' },
        }),
        200,
      );
    }
    return created.id;
  }

  beforeAll(async () => {
    stack = await startConsoleStack('console_project_overview');
    ({ browser, outside } = stack);
    const org = await seedOrganization(outside, { name: 'Shop Ltd', plan: 'pro' });
    const key = await seedApiKey(outside, org.id, [
      'builds:create',
      'testruns:create',
      'testruns:update',
      'results:submit',
    ]);
    pipeline = { Authorization: `Bearer ${key}` };
    projectId = (await seedProject(outside, org.id, { name: 'Web shop', key: 'WEB' })).id;
    for (let i = 0; i < MAIN_RUNS; i++) {
      mainRunIds.push(await run('Nightly', mainResults(i), { branch: 'main', number: 100 + i }));
      if (i === 3) {
        featureId = await run('Nightly', [{ automation_id: 'shop.Stable.c0', status: 'passed' }], {
          branch: 'feature/checkout',
          number: 7,
        });
      }
    }
    smokeId = await run('Smoke', [{ automation_id: 'shop.Stable.c0', status: 'passed' }], {
      open: true,
    });
    await browser.page.goto(`/console/projects/${projectId}`);
    await signIn(browser.page);
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;

  async function openOverview(width: number) {
    await page().setViewportSize({ width, height: 900 });
    await page().goto(`/console/projects/${projectId}`);
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'Web shop')).toBe(
      'Overview of Web shop',
    );
    await page().locator('table.latest-runs tbody tr').first().waitFor();
  }

  it.each(WIDTHS)(
    'at %i px, shows the latest runs, the trends, what changed, what recurs and what is flaky',
    async (width) => {
      await openOverview(width);
      // The latest run of each name, latest first, with the verdict its completion kept.
      const latest = page().getByRole('table', { name: 'Latest run of each name' });
      const rows = latest.locator('tbody tr');
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(0).getAttribute('data-run')).toBe(smokeId);
      expect(await rows.nth(0).textContent()).toContain('Not completed');
      expect(await rows.nth(1).getAttribute('data-run')).toBe(mainRunIds[MAIN_RUNS - 1]);
      expect(await rows.nth(1).textContent()).toContain('Gate failed');
      expect(await rows.nth(1).textContent()).toContain('main · #107 · 107c0ff');
      expect(await rows.nth(1).textContent()).toContain(passRateOf(MAIN_RUNS - 1));

      // The series of the latest run handed in, its four trends drawn, each named.
      expect(await page().getByLabel('Runs of').inputValue()).toBe('["Nightly","main"]');
      const passRate = page().getByRole('figure', { name: /pass rate/i });
      expect(await passRate.getAttribute('aria-labelledby')).toBe('trend-pass-rate');
      expect(await textWhen(passRate.getByRole('heading'), 'runs')).toBe(
        `Pass rate over the last ${MAIN_RUNS} runs`,
      );
      for (const name of [/failures over/i, /flaky results over/i, /duration over/i]) {
        await page().getByRole('figure', { name }).locator('canvas').first().waitFor();
      }
      await passRate.locator('canvas').first().waitFor();
      expect(await passRate.locator('.trend-chart').getAttribute('data-points')).toBe(
        String(MAIN_RUNS),
      );

      // The date ticks never overlap: each label ends before the next begins.
      const labels = JSON.parse(
        (await passRate.locator('.trend-chart').getAttribute('data-x-labels')) ?? '[]',
      ) as Array<[number, number]>;
      expect(labels.length).toBeGreaterThan(0);
      for (let i = 1; i < labels.length; i++) {
        expect(labels[i][0]).toBeGreaterThan(labels[i - 1][1]);
      }

      // What changed since the previous run: one new failure, one still failing, one fixed.
      const changes = page().getByRole('region', { name: 'Since the previous run' });
      await changes.locator('[data-compare="new_failures"]').waitFor();
      expect(await changes.locator('[data-compare="new_failures"]').textContent()).toBe('1');
      expect(await changes.locator('[data-compare="still_failing"]').textContent()).toBe('1');
      expect(await changes.locator('[data-compare="fixed"]').textContent()).toBe('1');
      expect(await changes.getByRole('list', { name: 'New failures' }).textContent()).toContain(
        'shop.Cart.new',
      );

      // The causes that recur: the declined card in 5 of 8 runs, the flaky one in 4.
      const recurring = page().getByRole('table', { name: 'Recurring failures' });
      await recurring.locator('tbody tr').first().waitFor();
      const causes = await recurring.locator('tbody tr').allTextContents();
      expect(causes).toHaveLength(2);
      expect(causes[0]).toContain('card declined (code 407)');
      expect(causes[0]).toContain(`5 of ${MAIN_RUNS}`);
      expect(causes[1]).toContain('element not clickable');
      expect(causes[1]).toContain(`4 of ${MAIN_RUNS}`);

      // The most flaky test first.
      const flaky = page().getByRole('table', { name: 'Most flaky tests' });
      await flaky.locator('tbody tr').first().waitFor();
      expect(await flaky.locator('tbody tr').first().textContent()).toContain('shop.Search.flaky');

      // No sideways scroll.
      expect(
        await page().evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
      ).toBe(true);
      await expectAccessible(page());
      await screenshot(page(), `project-overview-${width}`);
    },
  );

  it('says a run’s value where the pointer is on a chart, and every value in a table', async () => {
    await openOverview(1280);
    const passRate = page().getByRole('figure', { name: /pass rate/i });
    const over = passRate.locator('.u-over');
    await over.waitFor();
    const box = await over.boundingBox();
    if (!box) throw new Error('the chart has no plotting area');
    // The last run is at the right end of the plot, the first at its left.
    await page().mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    const hover = passRate.locator('.chart-hover');
    expect(await textWhen(hover, 'pass rate')).toContain(
      `build 107: pass rate ${passRateOf(MAIN_RUNS - 1)}`,
    );
    expect(await hover.getAttribute('data-hover')).toBe(mainRunIds[MAIN_RUNS - 1]);
    await page().mouse.move(box.x + 2, box.y + box.height / 2);
    expect(await textWhen(hover, 'build 100')).toContain(`build 100: pass rate ${passRateOf(0)}`);
    await screenshot(page(), 'project-overview-hover', { fullPage: false });

    await page().getByText('The trends as a table').click();
    const table = page().getByRole('table', { name: 'Trends, run by run' });
    await table.waitFor();
    const rates = await table.locator('[data-measure="pass-rate"]').allTextContents();
    const failures = await table.locator('[data-measure="failures"]').allTextContents();
    const order = [...Array(MAIN_RUNS).keys()].reverse();
    expect(rates).toEqual(order.map(passRateOf));
    expect(failures).toEqual(order.map((i) => String(failuresOf(i))));
    await expectAccessible(page());
  });

  it('follows another series when chosen, named in the URL', async () => {
    await openOverview(1280);
    await page().getByLabel('Runs of').selectOption('["Nightly","feature/checkout"]');
    await page().waitForURL(/branch=feature%2Fcheckout/);
    const passRate = page().getByRole('figure', { name: /pass rate/i });
    // The previous series' numbers stay until the new one's arrive.
    expect(await textWhen(passRate.getByRole('heading'), /over the last run$/, 15_000)).toBe(
      'Pass rate over the last run',
    );
    const recurring = page().getByRole('region', { name: 'Recurring failures' });
    expect(await textWhen(recurring, 'No cause', 15_000)).toContain(
      'No cause of failure recurs in the last run of Nightly on feature/checkout.',
    );
    const changes = page().getByRole('region', { name: 'Since the previous run' });
    expect(await textWhen(changes, 'has no earlier run like it', 15_000)).toContain(
      'has no earlier run like it',
    );
    expect(featureId).toBeDefined();
  });

  it('shows its first useful content soon after navigation, every time', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    // Notes when the latest runs' first row enters the DOM, in the page's own clock.
    await page().addInitScript(`
      new MutationObserver((_, observer) => {
        if (document.querySelector('table.latest-runs tbody tr')) {
          window.firstContentAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    `);
    const times: number[] = [];
    for (let i = 0; i < NAVIGATIONS; i++) {
      await page().goto(`/console/projects/${projectId}`);
      await page().locator('table.latest-runs tbody tr').first().waitFor();
      times.push(Math.round((await page().evaluate('window.firstContentAt')) as number));
    }
    process.stdout.write(
      `overview: first useful content after navigation (ms): ${times.join(', ')}\n`,
    );
    expect(Math.max(...times)).toBeLessThan(FIRST_CONTENT_BOUND_MS);
  });
});
