import type { APIRequestContext } from 'playwright-core';
import { expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { json, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';

/** The widths the new pages are checked at: a laptop's, and a narrow window's. */
const WIDTHS = [1280, 800] as const;
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';
const STACK_TRACE = [
  'AssertionError: card declined (code 4021): expected status "approved" but the payment provider answered "declined_by_issuer_after_three_domain_secure_challenge_timeout"',
  '    at Object.pays (/builds/web-shop/tests/checkout/payment.spec.ts:42:17)',
  '    at runTest (/builds/web-shop/node_modules/@playwright/test/lib/worker/testRunner.js:123:9)',
].join('\n');

/**
 * A result's detail page (issue 31), with data a pipeline sent through the public API: a run
 * of a build whose payment test failed in firefox after a timeout, with defects; the page is
 * opened from each kind of result row (the run's results, its failure groups, its comparison,
 * the case's history), shows the failure whole, copies the stack trace, and links the defects
 * once the project's defect URL template is set (refused first when it lacks `{id}`).
 */
describe('web console: a result’s detail', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let pipeline: Record<string, string>;
  let runId: string;
  let resultId: string;
  let caseId: string;

  async function completedRun(projectId: string, name: string, fields: object, results: object[]) {
    const run = await json<{ id: string }>(
      outside.post('/api/v1/testruns', {
        headers: pipeline,
        data: { project_id: projectId, name, ...fields },
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
    stack = await startConsoleStack('console_result_detail');
    ({ browser, outside } = stack);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: stack.base,
    });
    const org = await seedOrganization(outside, { name: 'Detail Ltd', plan: 'pro' });
    const key = await seedApiKey(outside, org.id, [
      'testruns:create',
      'testruns:read',
      'results:submit',
      'results:read',
      'builds:create',
    ]);
    pipeline = { Authorization: `Bearer ${key}` };
    const project = await seedProject(outside, org.id, { name: 'Web shop', key: 'WEB' });
    await completedRun(project.id, 'Nightly', {}, [
      {
        automation_id: 'shop.pays',
        title: 'Pays by card',
        status: 'passed',
        configuration: 'firefox',
      },
      { automation_id: 'shop.search', status: 'passed' },
    ]);
    const build = await json<{ id: string }>(
      outside.post('/api/v1/builds', {
        headers: pipeline,
        data: {
          name: 'web-shop',
          build_number: '1042',
          branch: 'release/2.3',
          commit_sha: SHA,
          project_id: project.id,
        },
      }),
      202,
    );
    runId = await completedRun(project.id, 'Nightly', { build_id: build.id }, [
      {
        automation_id: 'shop.pays',
        title: 'Pays by card',
        status: 'failed',
        configuration: 'firefox',
        duration_ms: 2100,
        message: 'card declined (code 4021)',
        failure_type: 'AssertionError',
        stack_trace: STACK_TRACE,
        defects: ['SHOP-12', 'PAY 7'],
        attempts: [{ status: 'failed', duration_ms: 30000, message: 'timeout after 30 s' }],
      },
      { automation_id: 'shop.search', status: 'passed', duration_ms: 40 },
    ]);
    const { data } = await json<{ data: Array<{ id: string; test_case_id: string }> }>(
      outside.get(`/api/v1/testruns/${runId}/results?status=failed`, { headers: pipeline }),
      200,
    );
    resultId = data[0].id;
    caseId = data[0].test_case_id;
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const heading = () => page().getByRole('heading', { level: 1 });

  /** The page's width beyond the window's, once laid out for the window's width. */
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
      await expectAccessible(page());
      await screenshot(page(), `${name}-${width}`);
    }
    await page().setViewportSize({ width: 1200, height: 760 });
  }

  async function openedFromRow() {
    await page().waitForURL(new RegExp(`/console/results/${resultId}$`));
    expect(await textWhen(heading(), 'Pays by card')).toMatch(/^Pays by card/);
  }

  it('opens from the run’s results: message, failure type, stack trace, attempts, build', async () => {
    await page().goto(`/console/runs/${runId}`);
    await signIn(page());
    await page().getByRole('link', { name: 'Pays by card' }).click();
    await openedFromRow();
    expect(await heading().textContent()).toBe('Pays by card Failed');
    expect(await page().locator('[data-field="message"]').textContent()).toBe(
      'card declined (code 4021)',
    );
    expect(await page().locator('[data-field="failure-type"]').textContent()).toBe(
      'AssertionError',
    );
    const trace = page().getByLabel('Stack trace of Pays by card in firefox', { exact: true });
    expect(await trace.textContent()).toBe(STACK_TRACE);
    // Monospace and wrapped: a long line never makes the page scroll sideways.
    const style = await page().evaluate<{ font: string; whiteSpace: string }>(
      `(() => {
        const computed = getComputedStyle(document.querySelector('.stack-trace pre'));
        return { font: computed.fontFamily, whiteSpace: computed.whiteSpace };
      })()`,
    );
    expect(style.font).toMatch(/monospace/);
    expect(style.whiteSpace).toBe('pre-wrap');

    const facts = page().locator('.result-facts');
    expect(await facts.locator('[data-fact="build"]').textContent()).toBe('web-shop #1042');
    expect(await facts.locator('[data-fact="branch"]').textContent()).toBe('release/2.3');
    expect(await facts.locator('[data-fact="commit"]').textContent()).toBe(SHA);
    expect(await facts.textContent()).toMatch(/ConfigurationfirefoxDuration2\.1 s/);
    expect(await facts.getByRole('link', { name: 'Nightly' }).getAttribute('href')).toBe(
      `/console/runs/${runId}`,
    );

    const attempts = page().getByRole('table', {
      name: 'Attempts of Pays by card in firefox, oldest first',
    });
    expect(await attempts.locator('tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/^1Failed30(\.0)? stimeout after 30 s$/),
      expect.stringMatching(/^2 \(final\)Failed2\.1 s.*card declined \(code 4021\)/),
    ]);
    expect(
      await page().getByRole('link', { name: 'History of this test' }).getAttribute('href'),
    ).toBe(`/console/cases/${caseId}`);
    // No template yet: the defect ids are shown, not linked.
    const defects = page().locator('ul.defects li');
    expect(await defects.allTextContents()).toEqual(['SHOP-12', 'PAY 7']);
    expect(await page().locator('ul.defects a').count()).toBe(0);
    await atEachWidth('result-detail');
  }, 60_000);

  it('copies the stack trace whole', async () => {
    await page()
      .getByRole('button', { name: 'Copy Stack trace of Pays by card in firefox' })
      .click();
    expect(await textWhen(page().locator('.stack-trace [role="status"]'), 'Copied')).toBe(
      'Copied to the clipboard.',
    );
    expect(await page().evaluate('navigator.clipboard.readText()')).toBe(STACK_TRACE);
  }, 60_000);

  it('sets the project’s defect URL template, refused without {id}, and links the defects', async () => {
    await page().getByRole('button', { name: 'Set defect links' }).click();
    const dialog = page().getByRole('dialog', { name: 'Defect links of this project' });
    await dialog.waitFor();
    const field = dialog.getByLabel('Defect URL template');
    await field.fill('https://jira.example.com/browse/');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await textWhen(dialog.getByRole('alert'), '{id}')).toMatch(
      /defect_url_template must be an http\(s\) URL .* containing \{id\}/,
    );
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page());
    await screenshot(page(), 'result-defect-links-refused', { fullPage: false });

    await field.fill('https://jira.example.com/browse/{id}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const links = page().locator('ul.defects a');
    expect(await textWhen(links.first(), 'SHOP-12')).toBe('SHOP-12');
    expect(await Promise.all((await links.all()).map((link) => link.getAttribute('href')))).toEqual(
      ['https://jira.example.com/browse/SHOP-12', 'https://jira.example.com/browse/PAY%207'],
    );
    expect(
      await page().getByText('Defect ids link to https://jira.example.com/browse/{id}.').count(),
    ).toBe(1);
    await atEachWidth('result-defects-linked');
  }, 60_000);

  it('opens from a failure group and from the comparison', async () => {
    await page().goto(`/console/runs/${runId}?tab=failures`);
    await page().locator('.failure-group').getByRole('link', { name: 'Pays by card' }).click();
    await openedFromRow();

    await page().goto(`/console/runs/${runId}?tab=comparison`);
    await page()
      .locator('[data-list="new-failures"]')
      .getByRole('link', { name: 'Pays by card' })
      .click();
    // Through the run's slot (the case in firefox) to the result's own address.
    await openedFromRow();
  }, 60_000);

  it('shows each result of the history with its message, build, branch, commit and configuration', async () => {
    await page().getByRole('link', { name: 'History of this test' }).click();
    await page().waitForURL(new RegExp(`/console/cases/${caseId}$`));
    const history = page().getByRole('table', { name: 'Results of the test case, newest first' });
    await history.waitFor();
    const rows = history.locator('tbody tr');
    expect(await rows.allTextContents()).toEqual([
      expect.stringMatching(
        /Failedcard declined \(code 4021\)Nightlyfirefoxweb-shop #1042release\/2\.39fceb02$/,
      ),
      expect.stringMatching(/Passed—Nightlyfirefox———$/),
    ]);
    expect(await rows.first().locator('code').getAttribute('title')).toBe(SHA);
    await atEachWidth('case-history-detail');
    await rows.first().getByRole('link').first().click();
    await openedFromRow();
  }, 60_000);

  it('says so for a result that does not exist', async () => {
    await page().goto('/console/results/9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b');
    expect(await textWhen(page().getByRole('alert'), 'no such result')).toBe(
      'There is no such result.',
    );
  }, 60_000);
});
