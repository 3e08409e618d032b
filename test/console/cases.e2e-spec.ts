import type { APIRequestContext } from 'playwright-core';
import { SERVICE_DOWN, expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { OPERATOR, json, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

/** Each case's status in runs 1 to 6: `P` passed, `F` failed. "Pays by card" flips. */
const CASES = [
  { automation_id: 'checkout.Payment.card', title: 'Pays by card', runs: 'PFPFPP' },
  { automation_id: 'checkout.Cart.add', title: 'Adds an item', runs: 'PPPPPP' },
  { automation_id: 'catalog.Search.finds', title: 'Finds a product', runs: 'PPPPPP' },
];
const STATUS = { P: 'passed', F: 'failed' } as const;

/** A UTC day `days` from now, as a date input takes it (YYYY-MM-DD). */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The test-case and flaky-test pages in a real browser against the built service: a pipeline
 * reports six runs through the public API in which one case flips between passed and failed;
 * the operator searches the project's cases, opens that case's history (status strip and
 * duration chart) and quarantines it from the flaky list. Screenshots go to docs/console/.
 */
describe('web console: test cases, their history, flaky tests and quarantine', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let apiKey: string;
  let project: { id: string; name: string };
  let flaky: { id: string };
  const runIds: string[] = [];

  beforeAll(async () => {
    stack = await startConsoleStack('console_cases');
    ({ browser, outside } = stack);
    const org = await seedOrganization(outside, { name: 'Shop Ltd', plan: 'pro' });
    apiKey = await seedApiKey(outside, org.id, [
      'testruns:create',
      'testruns:update',
      'results:submit',
      'results:read',
    ]);
    project = await seedProject(outside, org.id, { name: 'Web shop', key: 'WEB' });
    const pipeline = { Authorization: `Bearer ${apiKey}` };
    for (let i = 0; i < 6; i++) {
      const run = await json<{ id: string }>(
        outside.post('/api/v1/testruns', {
          headers: pipeline,
          data: { project_id: project.id, name: `Nightly ${i + 1}` },
        }),
      );
      runIds.push(run.id);
      await json(
        outside.post(`/api/v1/testruns/${run.id}/results`, {
          headers: pipeline,
          data: {
            results: CASES.map((c) => ({
              automation_id: c.automation_id,
              title: c.title,
              status: STATUS[c.runs[i] as 'P' | 'F'],
              duration_ms: 100 * (i + 1),
            })),
          },
        }),
      );
      const submitted = await outside.patch(`/api/v1/testruns/${run.id}`, {
        headers: pipeline,
        data: { status: 'submitted' },
      });
      expect(submitted.status()).toBe(200);
    }
    const found = await outside.get(
      `/internal/v1/projects/${project.id}/testcases?q=checkout.Payment.card`,
      { headers: OPERATOR },
    );
    flaky = ((await found.json()) as { data: Array<{ id: string }> }).data[0];
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const caseRows = () => page().locator('table.cases tbody tr');
  const pages = () => page().getByRole('navigation', { name: 'Pages' });

  /** The public API's quarantine list of the project, as a pipeline reads it. */
  async function publicQuarantine(): Promise<Array<Record<string, unknown>>> {
    const res = await outside.get(`/api/v1/projects/${project.id}/quarantine`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { data: Array<Record<string, unknown>> }).data;
  }

  it('searches the project’s test cases by title and by automation id', async () => {
    await page().goto(`/console/projects/${project.id}`);
    await signIn(page());
    await page().getByRole('navigation', { name: 'Project' }).waitFor();
    await page().getByRole('link', { name: 'Test cases' }).click();
    await page().waitForURL(new RegExp(`/console/projects/${project.id}/cases$`));
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'Web shop')).toBe(
      'Test cases of Web shop',
    );
    expect(await textWhen(pages(), '1–3 of 3')).toBe('1–3 of 3');

    // By title, case-insensitively; submitted with Enter; the search is in the URL.
    await page().getByLabel('Title or automation id').fill('PAYS BY');
    await page().keyboard.press('Enter');
    await page().waitForURL(/\?q=PAYS(\+|%20)BY$/);
    expect(await textWhen(pages(), '1–1 of 1')).toBe('1–1 of 1');
    expect(await caseRows().allTextContents()).toEqual([
      expect.stringMatching(/^Pays by card\s*checkout\.Payment\.card/),
    ]);

    // By automation id; a shared link shows the same.
    await page().getByLabel('Title or automation id').fill('search.FINDS');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().waitForURL(/\?q=search\.FINDS$/);
    await page().reload();
    expect(await textWhen(caseRows().first(), 'Finds a product')).toContain('catalog.Search.finds');
    expect(await caseRows().count()).toBe(1);
    expect(await page().getByLabel('Title or automation id').inputValue()).toBe('search.FINDS');
    await expectAccessible(page());
    await screenshot(page(), 'test-cases-search');

    await page().getByLabel('Title or automation id').fill('no such test');
    await page().keyboard.press('Enter');
    expect(
      await textWhen(page().locator('.state.empty'), 'No test case’s title or automation id'),
    ).toBe('No test case’s title or automation id contains “no such test”.');
    await page().getByRole('link', { name: 'Clear' }).click();
    await page().waitForURL(new RegExp(`/console/projects/${project.id}/cases$`));
    expect(await textWhen(pages(), '1–3 of 3')).toBe('1–3 of 3');
    expect(await page().getByLabel('Title or automation id').inputValue()).toBe('');
  }, 60_000);

  it('pages through the search’s matches, keeping the search', async () => {
    for (let i = 0; i < 26; i++) {
      await json(
        outside.post(`/internal/v1/projects/${project.id}/testcases`, {
          headers: OPERATOR,
          data: { title: `Paging case ${i}`, automation_id: `paging.case${i}` },
        }),
      );
    }
    await page().goto(`/console/projects/${project.id}/cases?q=paging`);
    expect(await textWhen(pages(), '1–25 of 26')).toBe('1–25 of 26Next');
    await page().getByRole('link', { name: 'Next' }).click();
    await page().waitForURL(/\?(?=.*q=paging)(?=.*offset=25)/);
    await page().reload();
    expect(await textWhen(pages(), '26–26 of 26')).toBe('26–26 of 26Previous');
    // Newest first: the first one made is last.
    expect(await caseRows().first().textContent()).toContain('Paging case 0');
    await page().getByRole('link', { name: 'Previous' }).click();
    await page().waitForURL(/\/cases\?q=paging$/);
    expect(await textWhen(pages(), '1–25 of 26')).toBe('1–25 of 26Next');
  }, 60_000);

  it('shows a case’s statuses over its runs in order, and its durations in a chart', async () => {
    await page().goto(`/console/projects/${project.id}/cases?q=card`);
    await page().getByRole('link', { name: 'Pays by card' }).click();
    await page().waitForURL(new RegExp(`/console/cases/${flaky.id}$`));
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'Pays by card')).toBe(
      'Pays by card',
    );
    expect(await textWhen(page().getByTestId('quarantine-state'), 'Not')).toBe(
      'Not in quarantine.',
    );

    // Oldest first, one cell per run, each named in words and linked to its run.
    const cells = page().getByRole('list', { name: 'Statuses, oldest first' }).locator('li');
    await cells.nth(5).waitFor();
    expect(await cells.evaluateAll((items) => items.map((li) => li.dataset.status))).toEqual([
      'passed',
      'failed',
      'passed',
      'failed',
      'passed',
      'passed',
    ]);
    const links = cells.getByRole('link');
    expect(await links.first().getAttribute('aria-label')).toMatch(/^Nightly 1: Passed, /);
    expect(await links.nth(1).getAttribute('aria-label')).toMatch(/^Nightly 2: Failed, /);
    expect(await links.first().getAttribute('href')).toBe(`/console/runs/${runIds[0]}`);

    // uPlot draws the six durations on a canvas, from a chunk of its own.
    const chart = page().locator('.duration-chart');
    await chart.locator('canvas').waitFor();
    expect(await chart.getAttribute('data-points')).toBe('6');
    expect(await page().locator('figure.chart figcaption').textContent()).toBe(
      'Fastest 100 ms, slowest 600 ms, over 6 results with a duration.',
    );
    const scripts = await page().evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.endsWith('.js')),
    );
    expect(scripts.some((name) => /\/duration-chart-[^/]+\.js$/.test(name))).toBe(true);
    await expectAccessible(page());
    await screenshot(page(), 'test-case');

    // A cell is a link to its run, reached with the keyboard.
    await links.nth(1).focus();
    await page().keyboard.press('Enter');
    await page().waitForURL(new RegExp(`/console/runs/${runIds[1]}$`));
  }, 60_000);

  it('quarantines the flaky test from the flaky list, with a reason and a last day, and takes it out', async () => {
    await page().goto(`/console/projects/${project.id}`);
    await page().getByRole('link', { name: 'Flaky tests' }).click();
    await page().waitForURL(new RegExp(`/console/projects/${project.id}/flaky-tests$`));
    const rows = page().locator('table.flaky tbody tr');
    // Only the case that flips: 4 flips over 6 runs.
    expect(await textWhen(rows.first(), 'Pays by card')).toMatch(
      /^Pays by card\s*checkout\.Payment\.card80%460Passed/,
    );
    expect(await rows.count()).toBe(1);
    await expectAccessible(page());

    await page().getByRole('button', { name: 'Quarantine Pays by card' }).click();
    const dialog = page().getByRole('dialog', { name: 'Quarantine “Pays by card”' });
    await dialog.waitFor();
    // The service refuses a last day that has passed; the dialog says why.
    await dialog.getByLabel('Reason').fill('Flips on the shared runners; QA-7');
    await dialog.getByLabel('Last day (UTC, optional)').fill('2020-01-31');
    await dialog.getByRole('button', { name: 'Quarantine' }).click();
    expect(await textWhen(dialog.getByRole('alert'), 'expires_at')).toContain('in the future');
    const lastDay = dayFromNow(10);
    await dialog.getByLabel('Last day (UTC, optional)').fill(lastDay);
    await expectAccessible(page());
    await screenshot(page(), 'flaky-quarantine-dialog', { fullPage: false });
    await dialog.getByLabel('Reason').press('Enter');
    await dialog.waitFor({ state: 'detached' });

    expect(await textWhen(rows.first(), 'Quarantined')).toContain('Quarantined');
    const expiresAt = new Date(Date.parse(`${lastDay}T00:00:00Z`) + 86_400_000).toISOString();
    expect(await publicQuarantine()).toEqual([
      {
        test_case_id: flaky.id,
        automation_id: 'checkout.Payment.card',
        reason: 'Flips on the shared runners; QA-7',
        expires_at: expiresAt,
        created_at: expect.any(String),
      },
    ]);
    await expectAccessible(page());
    await screenshot(page(), 'flaky-tests');

    // The case page shows the entry.
    await rows.first().getByRole('link', { name: 'Pays by card' }).click();
    expect(await textWhen(page().getByTestId('quarantine-state'), 'QA-7')).toMatch(
      /^Quarantined Flips on the shared runners; QA-7 \(Until .* UTC; since .*\)$/,
    );
    await expectAccessible(page());
    await screenshot(page(), 'test-case-quarantined');
    // Changing it starts from the entry as it is.
    await page().getByRole('button', { name: 'Change quarantine' }).click();
    const change = page().getByRole('dialog', { name: 'Quarantine “Pays by card”' });
    expect(await change.getByLabel('Reason').inputValue()).toBe(
      'Flips on the shared runners; QA-7',
    );
    expect(await change.getByLabel('Last day (UTC, optional)').inputValue()).toBe(lastDay);
    await page().keyboard.press('Escape');
    await change.waitFor({ state: 'detached' });

    // Taken out from the flaky list, after confirming.
    await page().goBack();
    await page().getByRole('button', { name: 'Unquarantine Pays by card' }).click();
    const confirm = page().getByRole('dialog', { name: /out of quarantine\?$/ });
    await confirm.getByRole('button', { name: 'Take out of quarantine' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page().getByRole('button', { name: 'Quarantine Pays by card' }).waitFor();
    expect(await rows.first().textContent()).not.toContain('Quarantined');
    expect(await publicQuarantine()).toEqual([]);
  }, 60_000);

  it('quarantines and releases from the case page', async () => {
    await page().goto(`/console/cases/${flaky.id}`);
    await page().getByRole('button', { name: 'Quarantine', exact: true }).click();
    const dialog = page().getByRole('dialog', { name: 'Quarantine “Pays by card”' });
    await dialog.getByLabel('Reason').fill('Until the gateway mock is fixed');
    await dialog.getByRole('button', { name: 'Quarantine' }).click();
    expect(await textWhen(page().getByTestId('quarantine-state'), 'gateway')).toMatch(
      /^Quarantined Until the gateway mock is fixed \(No expiry; since .*\)$/,
    );
    expect(await publicQuarantine()).toEqual([
      expect.objectContaining({ test_case_id: flaky.id, expires_at: null }),
    ]);
    await page().getByRole('button', { name: 'Take out of quarantine' }).click();
    await page()
      .getByRole('dialog')
      .getByRole('button', { name: 'Take out of quarantine' })
      .click();
    expect(await textWhen(page().getByTestId('quarantine-state'), 'Not')).toBe(
      'Not in quarantine.',
    );
    expect(await publicQuarantine()).toEqual([]);
  }, 60_000);

  it('says when the flaky list cannot be read, and tries again', async () => {
    let fail = true;
    await page().route('**/internal/v1/projects/*/flaky-tests**', (route) =>
      fail ? route.fulfill(SERVICE_DOWN) : route.continue(),
    );
    try {
      await page().goto(`/console/projects/${project.id}/flaky-tests`);
      expect(await textWhen(page().getByRole('alert'), 'Down for a moment.', 15_000)).toContain(
        'Could not load this page (503): Down for a moment.',
      );
      await expectAccessible(page());
      fail = false;
      await page().getByRole('button', { name: 'Try again' }).click();
      expect(await textWhen(pages(), '1–1 of 1')).toBe('1–1 of 1');
    } finally {
      await page().unroute('**/internal/v1/projects/*/flaky-tests**');
    }
  }, 60_000);

  it('says so when the case does not exist, and when a project has no flaky tests', async () => {
    await page().goto(`/console/cases/${UNKNOWN_ID}`);
    expect(await textWhen(page().getByRole('alert'), 'There is no such test case.')).toBe(
      'There is no such test case.',
    );
    await expectAccessible(page());
    const empty = await json<{ id: string }>(
      outside.post(`/internal/v1/organizations/${(await orgOf(project.id)).id}/projects`, {
        headers: OPERATOR,
        data: { name: 'Quiet', key: 'QUIET' },
      }),
    );
    await page().goto(`/console/projects/${empty.id}/flaky-tests`);
    expect(await textWhen(page().locator('.state.empty'), 'No flaky tests')).toContain(
      'No flaky tests',
    );
    await expectAccessible(page());
  }, 30_000);

  async function orgOf(projectId: string): Promise<{ id: string }> {
    const res = await outside.get(`/internal/v1/projects/${projectId}`, { headers: OPERATOR });
    return { id: ((await res.json()) as { organization_id: string }).organization_id };
  }
});
