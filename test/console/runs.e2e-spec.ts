import type { APIRequestContext } from 'playwright-core';
import { SERVICE_DOWN, expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { json, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

/** A pipeline's JUnit report: 3 passed, 1 failed, 1 skipped. */
const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="checkout" tests="5" failures="1" skipped="1">
    <testcase classname="checkout.Cart" name="adds an item" time="0.120"/>
    <testcase classname="checkout.Cart" name="removes an item" time="0.080"/>
    <testcase classname="checkout.Payment" name="pays by card" time="1.500">
      <failure message="card declined by the test gateway">AssertionError: expected 200, got 402</failure>
    </testcase>
    <testcase classname="checkout.Payment" name="pays by invoice" time="0.300"/>
    <testcase classname="checkout.Payment" name="pays in instalments"><skipped/></testcase>
  </testsuite>
</testsuites>`;

/**
 * The run pages in a real browser against the built service: an organization's projects, a
 * project's runs, and a run whose counts change while the page is open as a pipeline reports
 * through the public API; its results filtered by status. Screenshots go to docs/console/.
 */
describe('web console: projects, test runs and a live run', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  /** The pipeline and the operator's setup, outside the browser. */
  let outside: APIRequestContext;
  let apiKey: string;
  let org: { id: string; name: string };
  let project: { id: string; name: string };
  let run: { id: string; name: string };

  beforeAll(async () => {
    stack = await startConsoleStack('console_runs');
    ({ browser, outside } = stack);

    org = await seedOrganization(outside, { name: 'Shop Ltd', plan: 'pro' });
    apiKey = await seedApiKey(outside, org.id, [
      'testruns:create',
      'testruns:update',
      'testruns:read',
      'results:submit',
    ]);
    project = await seedProject(outside, org.id, {
      name: 'Web shop',
      key: 'WEB',
      description: 'The storefront',
    });
    const pipeline = { Authorization: `Bearer ${apiKey}` };
    const older = await json<{ id: string }>(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: project.id, name: 'Nightly 41' },
      }),
    );
    const done = await outside.patch(`/api/v1/testruns/${older.id}`, {
      headers: pipeline,
      data: { status: 'completed' },
    });
    expect(done.status()).toBe(200);
    run = await json(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: project.id, name: 'Nightly 42' },
      }),
    );
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const count = (status: string) => page().locator(`dd[data-count="${status}"]`);
  const resultRows = () => page().locator('table.results tbody tr');

  it('goes from the organization to its projects and to a project’s runs', async () => {
    await page().goto('/console/organizations');
    await signIn(page());
    await page().waitForURL(/\/console\/organizations$/);

    await page().getByRole('link', { name: 'Projects of Shop Ltd' }).click();
    await page().waitForURL(new RegExp(`/console/organizations/${org.id}/projects$`));
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'Projects of Shop Ltd')).toBe(
      'Projects of Shop Ltd',
    );
    const row = page().getByRole('row', { name: /Web shop/ });
    expect(await textWhen(row, 'The storefront')).toContain('WEB');
    await expectAccessible(page());
    await screenshot(page(), 'projects');

    // A project opens on its overview; its runs are a tab away.
    await row.getByRole('link', { name: 'Web shop' }).click();
    await page().waitForURL(new RegExp(`/console/projects/${project.id}$`));
    await page()
      .getByRole('navigation', { name: 'Project' })
      .getByRole('link', { name: 'Test runs' })
      .click();
    await page().waitForURL(new RegExp(`/console/projects/${project.id}/runs$`));
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'Test runs of Web shop')).toBe(
      'Test runs of Web shop',
    );
    // Newest first, each with its status and counts.
    const rows = page().locator('tbody tr');
    expect(await textWhen(rows.first(), 'Nightly 42')).toContain('In progress');
    expect(await rows.nth(1).textContent()).toContain('Completed');
    expect(await rows.first().textContent()).toContain('No results');
    await expectAccessible(page());
    await screenshot(page(), 'test-runs');

    // Filtered by status, in a URL that can be shared.
    await page().getByLabel('Status').selectOption('completed');
    await page().waitForURL(new RegExp(`/console/projects/${project.id}/runs\\?status=completed$`));
    await page().reload();
    expect(await textWhen(rows.first(), 'Nightly 41')).toContain('Completed');
    expect(await rows.count()).toBe(1);
    expect(await page().getByLabel('Status').inputValue()).toBe('completed');
  }, 60_000);

  it('shows a run’s counts change live while a pipeline reports, without reloading', async () => {
    await page().goto(`/console/projects/${project.id}/runs`);
    await page().getByRole('link', { name: 'Nightly 42' }).click();
    await page().waitForURL(new RegExp(`/console/runs/${run.id}$`));
    await page().getByText('No results yet.').waitFor();
    expect(await textWhen(page().locator('.live'), 'Live:')).toContain('Live:');
    expect(await count('total').textContent()).toBe('0');
    await expectAccessible(page());
    await screenshot(page(), 'run-empty');

    // Anything kept in the page survives only if it does not reload.
    await page().evaluate('window.stillTheSamePage = true');

    const ingested = await outside.post(`/api/v1/results/ingest?test_run_id=${run.id}`, {
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/xml' },
      data: REPORT,
    });
    expect(ingested.status()).toBe(201);
    expect(await textWhen(count('total'), '5')).toBe('5');
    expect(await count('passed').textContent()).toBe('3');
    expect(await count('failed').textContent()).toBe('1');
    expect(await count('skipped').textContent()).toBe('1');
    // The table follows the counts.
    expect(await textWhen(page().getByRole('navigation', { name: 'Pages' }), '1–5 of 5')).toBe(
      '1–5 of 5',
    );

    // A second batch, as JSON results: two more failures.
    const batch = await outside.post(`/api/v1/testruns/${run.id}/results`, {
      headers: { Authorization: `Bearer ${apiKey}` },
      data: {
        results: [
          { automation_id: 'checkout.Search.finds', status: 'failed', message: 'timed out' },
          { automation_id: 'checkout.Search.sorts', status: 'failed', message: 'wrong order' },
        ],
      },
    });
    expect(batch.status()).toBe(201);
    expect(await textWhen(count('failed'), '3')).toBe('3');
    expect(await count('total').textContent()).toBe('7');
    expect(await textWhen(resultRows().first(), 'Failed')).toContain('Failed');
    expect(await page().evaluate('window.stillTheSamePage')).toBe(true);
    await expectAccessible(page());
    await screenshot(page(), 'run-live');
  }, 60_000);

  it('filters the results by status, in a URL that can be shared', async () => {
    await page().getByLabel('Status').selectOption('failed');
    await page().waitForURL(new RegExp(`/console/runs/${run.id}\\?status=failed$`));
    expect(await textWhen(page().getByRole('navigation', { name: 'Pages' }), '1–3 of 3')).toBe(
      '1–3 of 3',
    );
    await page().reload();
    expect(await textWhen(page().getByRole('navigation', { name: 'Pages' }), '1–3 of 3')).toBe(
      '1–3 of 3',
    );
    const statuses = await resultRows().locator('td:nth-child(2)').allTextContents();
    expect(statuses).toEqual(['Failed', 'Failed', 'Failed']);
    expect(await resultRows().allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pays by card.*Failed.*card declined by the test gateway/),
        expect.stringMatching(/^checkout\.Search\.finds.*Failed.*timed out/),
      ]),
    );
    await expectAccessible(page());
    await screenshot(page(), 'run-failed-results');

    await page().getByLabel('Status').selectOption('blocked');
    await page().getByText('No blocked results in this run.').waitFor();
    await page().getByLabel('Status').selectOption('');
    await page().waitForURL(new RegExp(`/console/runs/${run.id}$`));
    expect(await textWhen(page().getByRole('navigation', { name: 'Pages' }), '1–7 of 7')).toBe(
      '1–7 of 7',
    );
  }, 60_000);

  it('keeps the run’s counts when its results cannot be read, and tries again', async () => {
    let fail = true;
    await page().route('**/internal/v1/testruns/*/results**', (route) =>
      fail ? route.fulfill(SERVICE_DOWN) : route.continue(),
    );
    try {
      await page().goto(`/console/runs/${run.id}?status=passed`);
      expect(await textWhen(page().getByRole('alert'), 'Down for a moment.', 15_000)).toContain(
        'Could not load this page (503): Down for a moment.',
      );
      expect(await textWhen(count('total'), '7')).toBe('7');
      await expectAccessible(page());
      await screenshot(page(), 'run-results-error');
      fail = false;
      await page().getByRole('button', { name: 'Try again' }).click();
      expect(await textWhen(page().getByRole('navigation', { name: 'Pages' }), '1–3 of 3')).toBe(
        '1–3 of 3',
      );
    } finally {
      await page().unroute('**/internal/v1/testruns/*/results**');
    }
  }, 60_000);

  it('pages through a project’s runs, keeping the status filter', async () => {
    const pipeline = { Authorization: `Bearer ${apiKey}` };
    for (let i = 0; i < 26; i++) {
      const more = await json<{ id: string }>(
        outside.post('/api/v1/testruns', {
          headers: pipeline,
          data: { project_id: project.id, name: `Paging ${i}` },
        }),
      );
      const done = await outside.patch(`/api/v1/testruns/${more.id}`, {
        headers: pipeline,
        data: { status: 'completed' },
      });
      expect(done.status()).toBe(200);
    }
    await page().goto(`/console/projects/${project.id}/runs?status=completed`);
    const pages = page().getByRole('navigation', { name: 'Pages' });
    expect(await textWhen(pages, '1–25 of 27')).toBe('1–25 of 27Next');
    await page().getByRole('link', { name: 'Next' }).click();
    await page().waitForURL(/\?(?=.*status=completed)(?=.*offset=25)/);
    expect(await textWhen(pages, '26–27 of 27')).toBe('26–27 of 27Previous');
    await page().reload();
    expect(await textWhen(pages, '26–27 of 27')).toBe('26–27 of 27Previous');
    // The oldest completed run, last.
    expect(await page().locator('tbody tr').last().textContent()).toContain('Nightly 41');
    await page().getByRole('link', { name: 'Previous' }).click();
    await page().waitForURL(new RegExp(`/console/projects/${project.id}/runs\\?status=completed$`));
    expect(await textWhen(pages, '1–25 of 27')).toBe('1–25 of 27Next');
  }, 60_000);

  it('says so when the run does not exist', async () => {
    await page().goto(`/console/runs/${UNKNOWN_ID}`);
    expect(await textWhen(page().getByRole('alert'), 'There is no such test run.')).toBe(
      'There is no such test run.',
    );
    await expectAccessible(page());
  }, 60_000);

  it('shows a project’s runs live: a new run appears and its counts and status change, without reloading', async () => {
    await page().goto(`/console/projects/${project.id}/runs`);
    expect(await textWhen(page().locator('.live'), 'Live:')).toContain('Live:');
    await page().evaluate('window.stillTheSamePage = true');
    const pipeline = { Authorization: `Bearer ${apiKey}` };

    const fresh = await json<{ id: string }>(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: project.id, name: 'Nightly 43' },
      }),
    );
    const row = page().getByRole('row', { name: /Nightly 43/ });
    expect(await textWhen(row, 'No results')).toContain('No results');

    const ingested = await outside.post(`/api/v1/results/ingest?test_run_id=${fresh.id}`, {
      headers: { ...pipeline, 'Content-Type': 'application/xml' },
      data: REPORT,
    });
    expect(ingested.status()).toBe(201);
    expect(await textWhen(row, '5 cases')).toContain('5 cases: 3 passed · 1 failed · 1 skipped');
    const done = await outside.patch(`/api/v1/testruns/${fresh.id}`, {
      headers: pipeline,
      data: { status: 'completed' },
    });
    expect(done.status()).toBe(200);
    expect(await textWhen(row, 'Completed')).toContain('Completed');
    expect(await page().evaluate('window.stillTheSamePage')).toBe(true);
    await expectAccessible(page());
    await screenshot(page(), 'test-runs-live');
  }, 60_000);
});
