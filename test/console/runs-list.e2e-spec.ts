import type { APIRequestContext, Page } from 'playwright-core';
import { expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { OPERATOR, json, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';
import { csvRecords } from '../support/csv.js';

/** The widths a QA lead's console is read at: a laptop, and a window beside the CI log. */
const WIDTHS = [1280, 800] as const;
const SHA = 'f3a9c1e2b4d5f60718293a4b5c6d7e8f90a1b2c3';

/**
 * The runs list with context, the searches and the CSV exports (issue 31) in a real browser
 * against the built service, at 1280 and 800 px: each run's build, branch, commit, verdict,
 * pass rate and configurations; filters kept in the URL; failures found by their error text
 * whatever its accents; tests found across projects; "Export CSV" on the run and flaky pages.
 * Screenshots go to docs/console/ (with UPDATE_SCREENSHOTS=1).
 */
describe('web console: the runs list, searches and CSV exports', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let orgId: string;
  let projectId: string;
  let runIds: string[];

  beforeAll(async () => {
    stack = await startConsoleStack('console_runs_list');
    ({ browser, outside } = stack);
    const org = await seedOrganization(outside, { name: 'Shop Ltd', plan: 'pro' });
    orgId = org.id;
    const key = await seedApiKey(outside, org.id, [
      'testruns:create',
      'testruns:update',
      'results:submit',
      'builds:create',
    ]);
    const pipeline = { Authorization: `Bearer ${key}` };
    const project = await seedProject(outside, org.id, { name: 'Web shop', key: 'WEB' });
    projectId = project.id;
    const other = await seedProject(outside, org.id, { name: 'Shop API', key: 'API' });
    runIds = [];
    // Six nightly runs, on main and a feature branch by turns, then a smoke run without a build.
    for (let i = 0; i < 6; i++) {
      const build = await json<{ id: string }>(
        outside.post('/api/v1/builds', {
          headers: pipeline,
          data: {
            name: 'web-shop',
            build_number: `${311 + i}`,
            branch: i % 2 === 0 ? 'main' : 'feature/saved-cards',
            commit_sha: SHA,
            project_id: projectId,
          },
        }),
        202,
      );
      const answer = await json<{ test_run_id: string }>(
        outside.post('/api/v1/results/ingest', {
          headers: pipeline,
          data: {
            project_id: projectId,
            build_id: build.id,
            run_name: 'Nightly e2e',
            complete: true,
            results: [
              {
                automation_id: 'cart.adds',
                title: 'Adds an item',
                status: 'passed',
                configuration: 'chromium',
              },
              {
                automation_id: 'cart.adds',
                title: 'Adds an item',
                status: 'passed',
                configuration: 'firefox',
              },
              {
                automation_id: 'checkout.pays',
                title: 'Pays by card',
                status: i % 2 === 0 ? 'failed' : 'passed',
                configuration: 'chromium',
                ...(i % 2 === 0
                  ? {
                      message: 'Naïve retry gave up: card declined',
                      failure_type: 'AssertionError',
                    }
                  : {}),
              },
              {
                automation_id: 'checkout.sum',
                title: '=SUM(A1:A9) totals, "rounded"',
                status: 'passed',
                configuration: 'chromium',
              },
            ],
          },
        }),
      );
      runIds.push(answer.test_run_id);
    }
    await json(
      outside.post('/api/v1/results/ingest', {
        headers: pipeline,
        data: {
          project_id: projectId,
          run_name: 'Smoke',
          results: [
            { automation_id: 'smoke.home', title: 'Opens the home page', status: 'passed' },
          ],
        },
      }),
    );
    await json(
      outside.post(`/internal/v1/projects/${other.id}/testcases`, {
        headers: OPERATOR,
        data: { title: 'POST /payments by card', automation_id: 'api.payments.card' },
      }),
    );
    await page().goto('/console/organizations');
    await signIn(page());
    await page().waitForURL(/\/console\/organizations$/);
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const rows = () => page().locator('table.run-list tbody tr');
  /** How far the page scrolls sideways (0: it fits the window). */
  const sideways = (p: Page) =>
    p.evaluate<number>(
      '(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)()',
    );

  it.each(WIDTHS)(
    'at %i px, lists each run with its build, verdict, pass rate and configurations',
    async (width) => {
      await page().setViewportSize({ width, height: 900 });
      await page().goto(`/console/projects/${projectId}/runs`);
      expect(await textWhen(rows().first(), 'Smoke')).toContain('Smoke');
      expect(await rows().count()).toBe(7);
      // The latest nightly: build 316 on the feature branch, all passed, gate passed.
      const latest = rows().nth(1);
      const text = await latest.textContent();
      expect(text).toContain('Nightly e2e');
      expect(text).toContain('#316');
      expect(text).toContain('feature/saved-cards');
      expect(text).toContain(SHA.slice(0, 7));
      expect(text).toContain('Gate passed');
      expect(text).toContain('100%');
      expect(text).toContain('chromium, firefox');
      // The one before: a failure on main, 75 % passed, gate failed.
      const before = await rows().nth(2).textContent();
      expect(before).toContain('#315');
      expect(before).toContain('main');
      expect(before).toContain('75%');
      // Its verdict as the gate kept it at completion.
      expect(before).toMatch(/Gate (passed|failed)/);
      expect(await rows().first().textContent()).toContain('No build');
      expect(await sideways(page())).toBe(0);
      await expectAccessible(page());
      await screenshot(page(), `runs-list-${width}`);
    },
  );

  it('filters by run name, branch, status and days, in a URL that can be shared', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await page().goto(`/console/projects/${projectId}/runs`);
    await rows().first().waitFor();

    // One name's runs: from a row's link, then by the form.
    await rows().filter({ hasText: 'Smoke' }).getByRole('link', { name: 'only this name' }).click();
    await page().waitForURL(/\?name=Smoke$/);
    // The previous page stays shown until the filtered one is read: its second row goes.
    await rows().nth(1).waitFor({ state: 'detached' });
    expect(await textWhen(rows().first(), 'Smoke')).toContain('Smoke');
    expect(await rows().count()).toBe(1);

    await page().getByLabel('Run name').fill('Nightly e2e');
    await page().getByLabel('Branch').fill('main');
    await page().getByRole('button', { name: 'Apply filters' }).click();
    await page().waitForURL(/branch=main/);
    expect(await textWhen(rows().first(), '#315')).toContain('#315');
    expect(await rows().count()).toBe(3);
    await page().reload();
    expect(await textWhen(rows().first(), '#315')).toContain('#315');
    expect(await page().getByLabel('Branch').inputValue()).toBe('main');
    expect(await page().getByLabel('Run name').inputValue()).toBe('Nightly e2e');

    await page().getByLabel('Status').selectOption('in_progress');
    await page().getByText('No runs of this project match these filters.').waitFor();

    // Days: from tomorrow on, nothing; up to today, everything.
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page().getByRole('button', { name: 'Clear filters' }).click();
    await page().waitForURL(/\/console\/projects\/[^?]+\?status=in_progress$/);
    await page().getByLabel('Status').selectOption('');
    await page().getByLabel('From').fill(tomorrow);
    await page().getByRole('button', { name: 'Apply filters' }).click();
    await page().getByText('No runs of this project match these filters.').waitFor();
    await page().getByLabel('From').fill(today);
    await page().getByLabel('To').fill(today);
    await page().getByRole('button', { name: 'Apply filters' }).click();
    await page().waitForURL(new RegExp(`from=${today}&to=${today}`));
    expect(await textWhen(rows().first(), 'Smoke')).toContain('Smoke');
    expect(await rows().count()).toBe(7);
    await expectAccessible(page());
  }, 60_000);

  it.each(WIDTHS)('at %i px, finds failures by error text, accents aside', async (width) => {
    await page().setViewportSize({ width, height: 900 });
    await page().goto(`/console/projects/${projectId}/runs`);
    await page().getByRole('link', { name: 'Failure search' }).click();
    await page().getByLabel('Error text').fill('NAIVE');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().waitForURL(/\/failures\?q=NAIVE$/);
    const found = page().locator('table.found-failures tbody tr');
    expect(await textWhen(found.first(), 'Naïve retry gave up')).toContain('AssertionError');
    expect(await found.count()).toBe(3);
    expect(await found.first().textContent()).toContain('Pays by card');
    expect(await sideways(page())).toBe(0);
    await expectAccessible(page());
    await screenshot(page(), `failure-search-${width}`);
    // Searching more runs, kept in the URL.
    await page().getByLabel('Runs searched').selectOption('30');
    await page().waitForURL(/\/failures\?q=NAIVE&runs=30$/);
    expect(await textWhen(found.first(), 'Naïve retry gave up')).toContain('Pays by card');
    // A found result opens its page.
    await found.first().getByRole('link', { name: 'Pays by card' }).click();
    await page().waitForURL(/\/console\/results\//);
  });

  it.each(WIDTHS)('at %i px, finds a test across the organization’s projects', async (width) => {
    await page().setViewportSize({ width, height: 900 });
    await page().goto(`/console/organizations/${orgId}/projects`);
    await page().getByRole('link', { name: 'Test search' }).click();
    await page().getByLabel('Title or automation id').fill('by card');
    await page().getByRole('button', { name: 'Search' }).click();
    const found = page().locator('table.found-cases tbody tr');
    expect(await textWhen(found.first(), 'Pays by card')).toContain('Web shop');
    expect(await found.count()).toBe(2);
    expect(await found.nth(1).textContent()).toContain('Shop API');
    expect(await sideways(page())).toBe(0);
    await expectAccessible(page());
    await screenshot(page(), `test-search-${width}`);
  });

  it.each(WIDTHS)('at %i px, the run page offers its results as CSV', async (width) => {
    await page().setViewportSize({ width, height: 900 });
    await page().goto(`/console/runs/${runIds[2]}`);
    const link = page().getByRole('link', { name: 'Export CSV' });
    await link.waitFor();
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toBe(`/internal/v1/testruns/${runIds[2]}/results/export`);
    // With the browser's session: the file a click downloads.
    const res = await page().request.get(href);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const records = csvRecords(await res.text());
    expect(records).toHaveLength(4);
    expect(records.find((r) => r.automation_id === 'checkout.pays')).toMatchObject({
      status: 'failed',
      message: 'Naïve retry gave up: card declined',
    });
    expect(records.find((r) => r.automation_id === 'checkout.sum')?.title).toBe(
      `'=SUM(A1:A9) totals, "rounded"`,
    );
    const download = page().waitForEvent('download');
    await link.click();
    expect((await download).suggestedFilename()).toBe('Nightly e2e results.csv');
    expect(await sideways(page())).toBe(0);
    await expectAccessible(page());
    await screenshot(page(), `run-export-${width}`, { fullPage: false });
  });

  it.each(WIDTHS)('at %i px, the flaky tests page offers the list as CSV', async (width) => {
    await page().setViewportSize({ width, height: 900 });
    await page().goto(`/console/projects/${projectId}/flaky-tests`);
    const link = page().getByRole('link', { name: 'Export CSV' });
    await link.waitFor();
    const res = await page().request.get((await link.getAttribute('href')) ?? '');
    expect(res.status()).toBe(200);
    expect(csvRecords(await res.text())[0]).toMatchObject({ automation_id: 'checkout.pays' });
    expect(await sideways(page())).toBe(0);
    await expectAccessible(page());
    await screenshot(page(), `flaky-export-${width}`);
  });
});
