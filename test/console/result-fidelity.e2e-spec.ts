import type { APIRequestContext, Locator } from 'playwright-core';
import { expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { json, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';

/** The widths the run page is checked at: a laptop's, and a narrow window's. */
const WIDTHS = [1280, 800] as const;

/**
 * What a result is (CONTRACT §13) on the console, with data a pipeline sent through the public
 * API: a Playwright-like matrix (one case in firefox and chromium, one without a configuration),
 * results with earlier attempts, and a run completed with the gate failed, its new failure
 * quarantined afterwards. The run page shows each result's configuration and filters by it,
 * opens a result's attempts, compares slot by slot, and shows the verdict kept at completion
 * beside today's, also once the run is reopened; the case's history is a strip per
 * configuration.
 */
describe('web console: configurations, attempts and the kept verdict', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let pipeline: Record<string, string>;
  let runId: string;
  let paysId: string;
  let projectId: string;

  /** A run named Matrix with `results`, completed. */
  async function matrixRun(projectId: string, results: object[]): Promise<string> {
    const run = await json<{ id: string }>(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: projectId, name: 'Matrix' },
      }),
    );
    await json(
      outside.post(`/api/v1/testruns/${run.id}/results`, {
        headers: pipeline,
        data: { results, complete: true },
      }),
    );
    return run.id;
  }

  beforeAll(async () => {
    stack = await startConsoleStack('console_result_fidelity');
    ({ browser, outside } = stack);
    const org = await seedOrganization(outside, { name: 'Matrix Ltd', plan: 'pro' });
    const key = await seedApiKey(outside, org.id, [
      'testruns:create',
      'testruns:update',
      'testruns:read',
      'results:submit',
      'results:read',
      'quarantine:manage',
    ]);
    pipeline = { Authorization: `Bearer ${key}` };
    const project = await seedProject(outside, org.id, { name: 'Web shop', key: 'WEB' });
    projectId = project.id;
    await matrixRun(project.id, [
      { automation_id: 'shop.pays', status: 'passed', configuration: 'firefox' },
      { automation_id: 'shop.pays', status: 'passed', configuration: 'chromium' },
      { automation_id: 'shop.search', status: 'passed' },
    ]);
    // Completed with the gate failed: shop.pays fails in firefox only, after a timeout first;
    // in chromium it passed on its second attempt.
    runId = await matrixRun(project.id, [
      {
        automation_id: 'shop.pays',
        status: 'failed',
        configuration: 'firefox',
        duration_ms: 2100,
        message: 'card declined',
        attempts: [{ status: 'failed', duration_ms: 30000, message: 'timeout after 30 s' }],
      },
      {
        automation_id: 'shop.pays',
        status: 'passed',
        configuration: 'chromium',
        duration_ms: 950,
        attempts: [
          {
            status: 'failed',
            duration_ms: 900,
            message: 'socket hang up',
            failure_type: 'Error',
          },
        ],
      },
      { automation_id: 'shop.search', status: 'passed', duration_ms: 40 },
    ]);
    const { data } = await json<{ data: Array<{ test_case_id: string }> }>(
      outside.get(`/api/v1/testruns/${runId}/results?status=failed`, { headers: pipeline }),
      200,
    );
    paysId = data[0].test_case_id;
    await json(
      outside.put(`/api/v1/projects/${project.id}/quarantine/${paysId}`, {
        headers: pipeline,
        data: { reason: 'payment sandbox down' },
      }),
      200,
    );
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const rows = () => page().locator('table.results > tbody > tr:not(.attempts-row)');
  const pages = () => page().getByRole('navigation', { name: 'Pages' });
  const gate = () => page().getByRole('region', { name: /Quality gate/ });
  const configurationFilter = () => page().getByLabel('Configuration');
  const runUrl = (search = '') =>
    new RegExp(`/console/runs/${runId}${search.replace(/[?]/g, '\\?')}$`);

  /** A status strip's statuses, oldest first. */
  const statuses = async (strip: Locator) =>
    Promise.all((await strip.locator('li').all()).map((cell) => cell.getAttribute('data-status')));

  /**
   * The page's width beyond the window's (a table or a line that does not fit), once the page
   * has laid itself out for the window's new width (a chart redraws on a resize observer).
   */
  async function overflow(ms = 3_000): Promise<number> {
    const deadline = Date.now() + ms;
    for (;;) {
      const beyond = await page().evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      if (beyond <= 0 || Date.now() > deadline) return beyond;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** A screenshot at each of `WIDTHS`, each checked for overflow and accessibility. */
  async function atEachWidth(name: string): Promise<void> {
    for (const width of WIDTHS) {
      await page().setViewportSize({ width, height: 800 });
      expect(await overflow()).toBeLessThanOrEqual(0);
      await screenshot(page(), `${name}-${width}`);
    }
    await page().setViewportSize({ width: 1200, height: 760 });
    await expectAccessible(page());
  }

  it('shows each result’s configuration and filters the results by it', async () => {
    await page().goto(`/console/runs/${runId}`);
    await signIn(page());
    await page().waitForURL(runUrl());
    expect(await textWhen(pages(), '1–3 of 3')).toBe('1–3 of 3');
    await configurationFilter().waitFor();
    expect(await configurationFilter().locator('option').allTextContents()).toEqual([
      'All',
      'chromium (1)',
      'firefox (1)',
      'No configuration (1)',
    ]);
    const configurations = await page().locator('td.configuration').allTextContents();
    expect(configurations.sort()).toEqual(['None', 'chromium', 'firefox']);
    expect(await rows().filter({ hasText: 'firefox' }).textContent()).toMatch(
      /^shop\.pays.*firefox.*Failed.*card declined/,
    );

    await configurationFilter().selectOption({ label: 'firefox (1)' });
    await page().waitForURL(runUrl('?configuration=firefox'));
    expect(await textWhen(pages(), '1–1 of 1')).toBe('1–1 of 1');
    expect(await rows().allTextContents()).toEqual([
      expect.stringMatching(/^shop\.pays.*firefox.*Failed/),
    ]);

    // "No configuration" is the empty filter: the results without one.
    await configurationFilter().selectOption({ label: 'No configuration (1)' });
    await page().waitForURL(runUrl('?configuration='));
    expect(await textWhen(rows().first(), 'shop.search')).toMatch(/^shop\.search/);
    expect(await rows().count()).toBe(1);
    await page().reload();
    expect(await textWhen(rows().first(), 'shop.search')).toMatch(/^shop\.search/);
    await configurationFilter().waitFor();
    expect(await configurationFilter().inputValue()).toBe('none');

    await page().getByLabel('Status').selectOption('failed');
    await page().getByText('No failed results without a configuration in this run.').waitFor();

    await configurationFilter().selectOption({ label: 'All' });
    await page().waitForURL(runUrl('?status=failed'));
    expect(await textWhen(pages(), '1–1 of 1')).toBe('1–1 of 1');
    await page().getByLabel('Status').selectOption('');
    await page().waitForURL(runUrl());
    expect(await textWhen(pages(), '1–3 of 3')).toBe('1–3 of 3');
    await atEachWidth('run-configurations');
  }, 60_000);

  it('opens a result’s earlier attempts: each one’s status, duration and message', async () => {
    const open = page().getByRole('button', { name: '1 earlier attempt of shop.pays in chromium' });
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    expect(await open.textContent()).toMatch(/1 earlier attempt of shop\.pays in chromium$/);
    expect(await rows().filter({ hasText: 'chromium' }).textContent()).toMatch(/Flaky/);
    await open.click();
    const attempts = page().getByRole('table', {
      name: 'Attempts of shop.pays in chromium, oldest first',
    });
    await attempts.waitFor();
    expect(await open.getAttribute('aria-expanded')).toBe('true');
    expect(await attempts.locator('tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/^1Failed900 msErrorsocket hang up$/),
      expect.stringMatching(/^2 \(final\)Passed950 ms—$/),
    ]);
    await page().getByRole('button', { name: '1 earlier attempt of shop.pays in firefox' }).click();
    const firefox = page().getByRole('table', {
      name: 'Attempts of shop.pays in firefox, oldest first',
    });
    expect(await firefox.locator('tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/^1Failed30(\.0)? stimeout after 30 s$/),
      expect.stringMatching(/^2 \(final\)Failed2\.1 scard declined$/),
    ]);
    // A result without earlier attempts has nothing to open.
    expect(
      await page()
        .getByRole('button', { name: /earlier attempts? of shop\.search/ })
        .count(),
    ).toBe(0);
    await atEachWidth('run-result-attempts');
    await open.click();
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    expect(await attempts.count()).toBe(0);
  }, 60_000);

  it('shows the verdict kept at completion beside today’s, and why they differ', async () => {
    expect(await textWhen(gate(), 'At completion')).toMatch(
      /^Quality gate PassedAt completion: Failed Completed with the gate failed \(.+ UTC\); passes now: 1 new failure quarantined since\./,
    );
    expect(await gate().locator('[data-gate]').getAttribute('data-gate')).toBe('passed');
    expect(await gate().locator('[data-kept-gate]').getAttribute('data-kept-gate')).toBe('failed');
    await atEachWidth('run-gate-kept');
  }, 30_000);

  it('compares the run with its baseline slot by slot', async () => {
    await page().getByRole('link', { name: 'Compared with baseline' }).click();
    await page().waitForURL(runUrl('?tab=comparison'));
    const newFailures = page().locator('[data-list="new-failures"] tbody tr');
    expect(await textWhen(newFailures.first(), 'shop.pays')).toMatch(
      /^shop\.pays.*firefox.*Failed.*Passed.*card declined/,
    );
    expect(await newFailures.count()).toBe(1);
    expect(await page().locator('dd[data-compare="flaky"]').textContent()).toBe('1');
    await atEachWidth('run-comparison-configurations');
  }, 30_000);

  it('shows a reopened run as in progress, with the verdict of its last completion', async () => {
    await json(
      outside.patch(`/api/v1/testruns/${runId}`, {
        headers: pipeline,
        data: { status: 'in_progress' },
      }),
      200,
    );
    await page().goto(`/console/runs/${runId}`);
    expect(await textWhen(gate(), 'Reopened')).toMatch(
      /Last completion: Failed Reopened: when last completed \(.+ UTC\) the run failed the gate; that verdict stays until it completes again\./,
    );
    expect(await page().locator('.title-row').textContent()).toMatch(/In progress/);
    await atEachWidth('run-reopened');

    // Reported from its row, a result goes to that row's slot: firefox's is replaced.
    await page().getByRole('button', { name: 'Report a result for shop.pays in firefox' }).click();
    const report = page().getByRole('dialog', {
      name: 'Report a result for “shop.pays” in firefox',
    });
    await report.getByLabel('Status').selectOption('failed');
    await report.getByLabel('Message').fill('still declined');
    await report.getByLabel('Message').press('Enter');
    await report.waitFor({ state: 'detached' });
    expect(await textWhen(rows().filter({ hasText: 'firefox' }), 'still declined')).toMatch(
      /^shop\.pays.*firefox.*Failed.*still declined/,
    );
    expect(await page().locator('dd[data-count="total"]').textContent()).toBe('3');
    expect(await rows().filter({ hasText: 'chromium' }).textContent()).toMatch(/Passed/);
  }, 30_000);

  it('says when the kept verdict and today’s agree, and why a passed gate fails now', async () => {
    await json(
      outside.patch(`/api/v1/testruns/${runId}`, {
        headers: pipeline,
        data: { status: 'completed' },
      }),
      200,
    );
    await page().goto(`/console/runs/${runId}`);
    expect(await textWhen(gate(), 'the same now')).toMatch(
      /At completion: Passed Completed with the gate passed \(.+ UTC\); the same now\./,
    );
    const unquarantined = await outside.delete(
      `/api/v1/projects/${projectId}/quarantine/${paysId}`,
      { headers: pipeline },
    );
    expect(unquarantined.status()).toBe(204);
    await page().reload();
    expect(await textWhen(gate(), 'fails now')).toMatch(
      /^Quality gate FailedAt completion: Passed Completed with the gate passed \(.+ UTC\); fails now: 1 new failure outside quarantine\./,
    );
    await atEachWidth('run-gate-fails-now');
  }, 30_000);

  it('shows a case’s history as a strip per configuration', async () => {
    await page().goto(`/console/cases/${paysId}`);
    const groups = page().locator('.strip-group');
    await groups.first().waitFor();
    await page().locator('.duration-chart canvas').waitFor();
    expect(await groups.locator('h4').allTextContents()).toEqual(['chromium', 'firefox']);
    const firefox = page().getByRole('list', { name: 'Statuses in firefox, oldest first' });
    // The firefox result replaced in the reopened run stays in the history.
    expect(await statuses(firefox)).toEqual(['passed', 'failed', 'failed']);
    expect(await firefox.getByRole('link').last().getAttribute('aria-label')).toMatch(
      /^Matrix \(firefox\): Failed, /,
    );
    const chromium = page().getByRole('list', { name: 'Statuses in chromium, oldest first' });
    expect(await statuses(chromium)).toEqual(['passed', 'passed']);
    await atEachWidth('test-case-configurations');
  }, 30_000);
});
