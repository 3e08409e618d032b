import type { APIRequestContext } from 'playwright-core';
import { expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { json, OPERATOR, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';

/** The run before the one the page shows: its results by automation id. */
const BASELINE = {
  'shop.Cart.adds': ['passed'],
  'shop.Pay.card': ['passed'],
  'shop.Pay.invoice': ['failed', 'timeout after 30 s'],
  'shop.Search.finds': ['failed', 'index missing'],
  'shop.Search.sorts': ['passed'],
} as const;

/**
 * The run page: two new failures of one cause (a card declined, in an old case and a new one),
 * a flaky case failing again, one still failing (in quarantine) and one fixed.
 */
const CURRENT = {
  'shop.Cart.adds': ['passed'],
  'shop.Pay.card': ['failed', 'card declined (code 4021)'],
  'shop.Pay.wallet': ['failed', 'card declined (code 4022)'],
  'shop.Pay.invoice': ['passed'],
  'shop.Search.finds': ['failed', 'index missing'],
  'shop.Search.sorts': ['failed', 'wrong order'],
} as const;

type Results = Record<string, readonly string[]>;

/**
 * The run page's results intelligence and actions in a real browser against the built service,
 * with data a pipeline sent through the public API: the quality gate's verdict, the results
 * with flaky and quarantine markers and a search, the failures grouped by cause, the comparison
 * with the baseline (new failures first), submitting results from a dialog and completing the
 * run, both refused with the server's words when the server says no. Screenshots go to
 * docs/console/ (with UPDATE_SCREENSHOTS=1).
 */
describe('web console: a run’s failures, comparison, gate and actions', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let pipeline: Record<string, string>;
  let baselineId: string;
  let runId: string;

  /** A run named Nightly with `results`, completed unless `open`; its case ids by automation id. */
  async function nightly(
    projectId: string,
    results: Results,
    open = false,
  ): Promise<{ id: string; cases: Record<string, string> }> {
    const run = await json<{ id: string }>(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: projectId, name: 'Nightly' },
      }),
    );
    const sent = await json<{ data: Array<{ test_case_id: string }> }>(
      outside.post(`/api/v1/testruns/${run.id}/results`, {
        headers: pipeline,
        data: {
          results: Object.entries(results).map(([automation_id, [status, message]]) => ({
            automation_id,
            status,
            ...(message ? { message } : {}),
          })),
        },
      }),
    );
    if (!open) {
      await json(
        outside.patch(`/api/v1/testruns/${run.id}`, {
          headers: pipeline,
          data: { status: 'completed' },
        }),
        200,
      );
    }
    const ids = Object.keys(results);
    return {
      id: run.id,
      cases: Object.fromEntries(sent.data.map((r, i) => [ids[i], r.test_case_id])),
    };
  }

  beforeAll(async () => {
    stack = await startConsoleStack('console_run_insights');
    ({ browser, outside } = stack);
    const org = await seedOrganization(outside, { name: 'Shop Ltd', plan: 'pro' });
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
    // shop.Search.sorts flips from run to run: the flaky list names it.
    for (const status of ['passed', 'failed', 'passed', 'failed']) {
      await nightly(project.id, { ...BASELINE, 'shop.Search.sorts': [status] });
    }
    baselineId = (await nightly(project.id, BASELINE)).id;
    const current = await nightly(project.id, CURRENT, true);
    runId = current.id;
    await json(
      outside.put(
        `/api/v1/projects/${project.id}/quarantine/${current.cases['shop.Search.finds']}`,
        { headers: pipeline, data: { reason: 'search index rebuilt nightly' } },
      ),
      200,
    );
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const count = (status: string) => page().locator(`dd[data-count="${status}"]`);
  const rows = () => page().locator('table.results tbody tr');
  const row = (automationId: string) => rows().filter({ hasText: automationId });
  const search = () => page().getByRole('searchbox', { name: 'Search' });
  /** The tabs marked as the one shown. */
  const currentTabs = () =>
    page()
      .getByRole('navigation', { name: 'Run sections' })
      .locator('[aria-current="page"]')
      .allTextContents();
  const pages = () => page().getByRole('navigation', { name: 'Pages' });
  const runUrl = (search = '') =>
    new RegExp(`/console/runs/${runId}${search.replace(/[?]/g, '\\?')}$`);

  it('shows the gate’s verdict and the results with their flaky and quarantine markers', async () => {
    await page().goto(`/console/runs/${runId}`);
    await signIn(page());
    await page().waitForURL(runUrl());

    const gate = page().getByRole('region', { name: /Quality gate/ });
    expect(await textWhen(gate, 'Failed')).toContain('Quality gate Failed');
    expect(await gate.textContent()).toContain('No new failures');
    expect(await gate.textContent()).toMatch(/3 new failures/);

    expect(await textWhen(pages(), '1–6 of 6')).toBe('1–6 of 6');
    expect(await currentTabs()).toEqual(['Results']);
    expect(await row('shop.Search.sorts').textContent()).toMatch(/Flaky/);
    expect(await row('shop.Search.sorts').textContent()).not.toMatch(/Quarantined/);
    expect(await row('shop.Search.finds').textContent()).toMatch(/Quarantined/);
    expect(await row('shop.Cart.adds').textContent()).not.toMatch(/Flaky|Quarantined/);
    await expectAccessible(page());
    await screenshot(page(), 'run-gate-and-markers');
  }, 60_000);

  it('searches the results by title or automation id, in a URL that can be shared', async () => {
    await search().fill('PAY.');
    await search().press('Enter');
    await page().waitForURL(runUrl('?q=PAY.'));
    expect(await textWhen(pages(), '1–3 of 3')).toBe('1–3 of 3');
    await page().getByLabel('Status').selectOption('failed');
    await page().waitForURL(/\?(?=.*status=failed)(?=.*q=PAY\.)/);
    expect(await textWhen(pages(), '1–2 of 2')).toBe('1–2 of 2');
    await page().reload();
    expect(await textWhen(pages(), '1–2 of 2')).toBe('1–2 of 2');
    expect(await search().inputValue()).toBe('PAY.');
    expect((await rows().allTextContents()).sort()).toEqual([
      expect.stringMatching(/^shop\.Pay\.card.*Failed.*card declined \(code 4021\)/),
      expect.stringMatching(/^shop\.Pay\.wallet.*Failed.*card declined \(code 4022\)/),
    ]);
    await search().fill('nothing like it');
    await search().press('Enter');
    await page().getByText('No failed results matching “nothing like it” in this run.').waitFor();
    await expectAccessible(page());
    await screenshot(page(), 'run-search');
    await page().getByRole('button', { name: 'Clear' }).click();
    await page().waitForURL(runUrl('?status=failed'));
    expect(await textWhen(pages(), '1–4 of 4')).toBe('1–4 of 4');
    expect(await currentTabs()).toEqual(['Results']);
    expect(await search().inputValue()).toBe('');
  }, 30_000);

  it('groups the failures by cause, the cases linked to their results', async () => {
    await page().getByRole('link', { name: 'Failures' }).click();
    await page().waitForURL(runUrl('?tab=failures'));
    const groups = page().locator('.failure-group');
    expect(await textWhen(groups.first(), 'card declined')).toMatch(
      /^2 failures.*card declined \(code 4021\)/,
    );
    expect(await groups.count()).toBe(3);
    expect(await groups.first().getByRole('link').allTextContents()).toEqual(
      expect.arrayContaining(['shop.Pay.card', 'shop.Pay.wallet']),
    );
    expect(await currentTabs()).toEqual(['Failures']);
    await expectAccessible(page());
    await screenshot(page(), 'run-failures');

    // A case's link: its failing result's page.
    await groups.first().getByRole('link', { name: 'shop.Pay.wallet' }).click();
    await page().waitForURL(/\/console\/results\/[0-9a-f-]{36}$/);
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'shop.Pay.wallet')).toBe(
      'shop.Pay.wallet Failed',
    );
    await page().goBack();
    await page().waitForURL(runUrl('?tab=failures'));
  }, 30_000);

  it('compares the run with its baseline, new failures first', async () => {
    await page().getByRole('link', { name: 'Compared with baseline' }).click();
    await page().waitForURL(runUrl('?tab=comparison'));
    const lists = page().locator('.comparison-list h3');
    expect(await textWhen(lists.first(), 'New failures')).toBe('New failures (3)');
    expect(await lists.allTextContents()).toEqual([
      'New failures (3)',
      'Still failing (1)',
      'Fixed (1)',
    ]);
    expect(await currentTabs()).toEqual(['Compared with baseline']);
    const newFailures = page().locator('[data-list="new-failures"] tbody tr');
    expect(await newFailures.allTextContents()).toEqual([
      expect.stringMatching(/^shop\.Pay\.card.*Failed.*Passed/),
      expect.stringMatching(/^shop\.Pay\.wallet.*Failed.*Absent/),
      expect.stringMatching(/^shop\.Search\.sorts.*Failed.*Passed/),
    ]);
    expect(await page().locator('[data-list="fixed"] tbody tr').textContent()).toMatch(
      /^shop\.Pay\.invoice.*Passed.*Failed/,
    );
    expect(await page().locator('dd[data-compare="flaky"]').textContent()).toBe('0');
    await expectAccessible(page());
    await screenshot(page(), 'run-comparison');

    const baseline = page().getByRole('link', { name: 'the previous run like this one' });
    expect(await baseline.getAttribute('href')).toBe(`/console/runs/${baselineId}`);
  }, 30_000);

  it('submits a result from the keyboard, and shows the server’s refusal', async () => {
    await page().goto(`/console/runs/${runId}`);
    expect(await textWhen(count('total'), '6')).toBe('6');
    await page().getByRole('button', { name: 'Submit result' }).focus();
    await page().keyboard.press('Enter');
    const dialog = page().getByRole('dialog', { name: 'Submit a result' });
    await dialog.waitFor();
    // The focus starts in the dialog, on the automation id.
    expect(await page().evaluate('document.activeElement.id')).toBe('result-automation-id');
    await page().keyboard.type('shop.Manual.checks');
    await page().keyboard.press('Tab');
    await page().keyboard.type('Checks by hand');
    await dialog.getByLabel('Status').selectOption('failed');
    await dialog.getByLabel('Duration (ms)').fill('-5');
    await dialog.getByLabel('Message').fill('looked wrong');
    await dialog.getByLabel('Message').press('Enter');
    // The server's rule, in its words.
    expect(await textWhen(dialog.getByRole('alert'), 'duration_ms')).toMatch(/duration_ms/);
    expect(await dialog.getByLabel('Duration (ms)').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page());
    await screenshot(page(), 'run-submit-result', { fullPage: false });

    await dialog.getByLabel('Duration (ms)').fill('1500');
    await dialog.getByLabel('Message').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await textWhen(page().locator('.notice'), 'created')).toBe(
      'Result submitted; its test case was created.',
    );
    expect(await textWhen(count('total'), '7')).toBe('7');
    expect(await count('failed').textContent()).toBe('5');
    expect(await textWhen(row('shop.Manual.checks'), 'looked wrong')).toMatch(
      /^Checks by hand.*Failed.*1\.5 s.*looked wrong/,
    );

    // A row's own button, reached by Tab: a result for that case.
    await search().focus();
    let focused = '';
    for (let i = 0; i < 40 && !focused.startsWith('Report a result for shop.Pay.card'); i++) {
      await page().keyboard.press('Tab');
      focused = (await page().evaluate(
        'document.activeElement.getAttribute("aria-label") ?? ""',
      )) as string;
    }
    expect(focused).toBe('Report a result for shop.Pay.card');
    await page().keyboard.press('Enter');
    const report = page().getByRole('dialog', { name: 'Report a result for “shop.Pay.card”' });
    await report.waitFor();
    await report.getByLabel('Status').selectOption('passed');
    await report.getByLabel('Message').fill('passed on a rerun');
    await report.getByLabel('Message').press('Enter');
    await report.waitFor({ state: 'detached' });
    expect(await textWhen(count('failed'), '4')).toBe('4');
    expect(await count('total').textContent()).toBe('7');
    const gate = page().getByRole('region', { name: /Quality gate/ });
    expect(await textWhen(gate, '3 new failures')).toMatch(/3 new failures/);
  }, 60_000);

  it('stores a result once when its submission is sent again after the network failed', async () => {
    await page().goto(`/console/runs/${runId}`);
    expect(await textWhen(count('total'), '7')).toBe('7');
    // The first POST reaches the service and is stored, but its answer never reaches the page.
    let cutOff = 0;
    await page().route(`**/internal/v1/testruns/${runId}/results`, async (route) => {
      if (route.request().method() !== 'POST' || cutOff > 0) return route.continue();
      cutOff += 1;
      await route.fetch();
      await route.abort('failed');
    });
    try {
      await page().getByRole('button', { name: 'Submit result' }).click();
      const dialog = page().getByRole('dialog', { name: 'Submit a result' });
      await dialog.getByLabel('Automation id').fill('shop.Retry.once');
      await dialog.getByLabel('Status').selectOption('passed');
      await dialog.getByLabel('Automation id').press('Enter');
      await dialog.getByRole('alert').waitFor();
      // The operator sends it again, not knowing whether it was stored.
      await dialog.getByLabel('Automation id').press('Enter');
      await dialog.waitFor({ state: 'detached' });
    } finally {
      await page().unroute(`**/internal/v1/testruns/${runId}/results`);
    }
    expect(cutOff).toBe(1);
    expect(await textWhen(count('total'), '8')).toBe('8');
    const stored = await json<{ data: unknown[] }>(
      outside.get(`/internal/v1/testruns/${runId}/results`, {
        headers: OPERATOR,
        params: { q: 'shop.Retry.once', include_history: 'true' },
      }),
      200,
    );
    expect(stored.data).toHaveLength(1);
  }, 30_000);

  it('completes the run after confirmation; then it offers only to reopen it', async () => {
    await page().getByRole('button', { name: 'Complete run' }).click();
    const confirm = page().getByRole('dialog', { name: 'Complete the run “Nightly”?' });
    await confirm.waitFor();
    // The safe choice has the focus.
    expect(await page().evaluate('document.activeElement.textContent')).toBe('Cancel');
    await expectAccessible(page());
    await screenshot(page(), 'run-complete-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: 'Complete run' }).click();
    await confirm.waitFor({ state: 'detached' });
    const title = page().locator('.title-row');
    expect(await textWhen(title, 'Completed')).toContain('Completed');
    expect(await page().locator('.notice').textContent()).toBe('The run is completed.');
    // Nothing more to follow: the page says so instead of "Live".
    expect(await textWhen(page().locator('.live'), 'final')).toBe(
      'Completed: these results are final',
    );

    // A completed run takes no results: its page offers no change but reopening it.
    await page().getByRole('button', { name: 'Reopen run' }).waitFor();
    for (const name of ['Complete run', 'Submit result', /^Report a result/]) {
      expect(await page().getByRole('button', { name }).count()).toBe(0);
    }
    expect(await count('total').textContent()).toBe('8');
  }, 60_000);
});
