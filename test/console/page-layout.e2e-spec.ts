import type { APIRequestContext, Page } from 'playwright-core';
import { openBrowser, screenshot, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { OPERATOR, json, seedApiKey, seedOrganization, seedProject, signIn } from './seed.js';

/** The nightly runs a pipeline reports; the last one is still open. */
const RUNS = 16;

/** The widths a QA lead's console is read at: a laptop, and a window beside the CI log. */
const WIDTHS = [1280, 800] as const;

/** Automation ids as long as real ones (Java packages), which widen tables. */
const CASES = [
  {
    automation_id:
      'com.example.shop.checkout.payment.SavedCardPaymentIntegrationTest.paysWithSavedCardWhenTheBankAsksForStrongCustomerAuthentication',
    title: 'Pays with a saved card when the bank asks for strong customer authentication',
    runs: 'PFPFPFPPPFPPPFPP',
  },
  {
    automation_id:
      'com.example.shop.catalog.search.ProductSearchIntegrationTest.findsProductsByTheirTranslatedNamesInEveryConfiguredLocale',
    title: 'Finds products by their translated names in every configured locale',
    runs: 'PPPPPPPPPPPPPPPF',
  },
  {
    automation_id: 'com.example.shop.cart.CartTest.addsAnItem',
    title: 'Adds an item',
    runs: 'PPPPPPPPPPPPPPPP',
  },
];
const STATUS = { P: 'passed', F: 'failed' } as const;

/**
 * Every page of the console at 1280 and 800 px, against the built service, with the data a QA
 * lead's Monday has: sixteen nightly runs (one case flips, one failed last night), a release, a
 * quarantined case, builds waiting in the queue with long names. No page scrolls sideways, no
 * request of a page's load fails, the flaky list's Unquarantine button is in view, the page
 * names a favicon that is served, and the duration chart's date labels never overlap. The
 * console's first load is measured over the wire (compressed) and as the files are, and printed.
 */
describe('web console: every page at 1280 and 800 px', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let orgId: string;
  let projectId: string;
  let releaseId: string;
  let runIds: string[];
  let flipperId: string;

  beforeAll(async () => {
    stack = await startConsoleStack('console_layout');
    ({ browser, outside } = stack);
    const org = await seedOrganization(outside, {
      name: 'Example Shop International Holdings',
      plan: 'pro',
    });
    orgId = org.id;
    const key = await seedApiKey(outside, org.id, [
      'testruns:create',
      'testruns:update',
      'results:submit',
      'builds:create',
    ]);
    const pipeline = { Authorization: `Bearer ${key}` };
    const project = await seedProject(outside, org.id, {
      name: 'Web shop storefront and checkout',
      key: 'WEB',
    });
    projectId = project.id;
    const release = await json<{ id: string }>(
      outside.post(`/internal/v1/projects/${projectId}/releases`, {
        headers: OPERATOR,
        data: { name: 'Spring release 2026.4', version: '2026.4.0' },
      }),
    );
    releaseId = release.id;
    runIds = [];
    for (let i = 0; i < RUNS; i++) {
      const answer = await json<{ test_run_id: string }>(
        outside.post('/api/v1/results/ingest', {
          headers: pipeline,
          data: {
            project_id: projectId,
            run_name: 'nightly e2e',
            release_id: releaseId,
            complete: i < RUNS - 1,
            results: CASES.map((c) => ({
              automation_id: c.automation_id,
              title: c.title,
              status: STATUS[c.runs[i] as 'P' | 'F'],
              duration_ms: 1_000 + 150 * i,
              ...(c.runs[i] === 'F'
                ? { message: `expected status 200 but was 502 after ${30 + i} s of waiting` }
                : {}),
            })),
          },
        }),
      );
      runIds.push(answer.test_run_id);
    }
    const cases = await json<{ data: Array<{ id: string; automation_id: string }> }>(
      outside.get(`/internal/v1/projects/${projectId}/testcases?limit=10`, { headers: OPERATOR }),
      200,
    );
    const byAutomationId = new Map(cases.data.map((c) => [c.automation_id, c.id]));
    flipperId = byAutomationId.get(CASES[0].automation_id) ?? '';
    // The flipping case, quarantined: its flaky row shows Unquarantine.
    await json(
      outside.put(`/internal/v1/projects/${projectId}/quarantine/${flipperId}`, {
        headers: OPERATOR,
        data: { reason: 'Flips on the shared payment sandbox; tracked in QA-1234' },
      }),
      200,
    );
    for (let i = 0; i < 3; i++) {
      await json(
        outside.post('/api/v1/builds', {
          headers: pipeline,
          data: {
            name: `storefront-and-checkout-nightly-integration-build-with-a-long-name-${i + 1}`,
            build_number: `2026.11.${20 + i}-nightly.${4000 + i}`,
            branch: 'feature/checkout-strong-customer-authentication-retries',
            commit_sha: 'f3a9c1e2b4d5f60718293a4b5c6d7e8f90a1b2c3',
            project_id: projectId,
          },
        }),
        202,
      );
    }
    await page().goto('/console/organizations');
    await signIn(page());
    await page().waitForURL(/\/console\/organizations$/);
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;

  /** Every page of the console with data in it, by a name for its screenshot. */
  const pages = (): Array<[string, string]> => [
    ['organizations', '/console/organizations'],
    ['organization', `/console/organizations/${orgId}`],
    ['projects', `/console/organizations/${orgId}/projects`],
    ['api-keys', `/console/organizations/${orgId}/api-keys`],
    ['build-queue', `/console/organizations/${orgId}/build-queue`],
    ['webhooks', `/console/organizations/${orgId}/webhooks`],
    ['overview', `/console/projects/${projectId}`],
    ['runs', `/console/projects/${projectId}/runs`],
    ['run', `/console/runs/${runIds[RUNS - 1]}`],
    ['run-failures', `/console/runs/${runIds[RUNS - 1]}?tab=failures`],
    ['run-comparison', `/console/runs/${runIds[RUNS - 1]}?tab=comparison`],
    ['releases', `/console/projects/${projectId}/releases`],
    ['release', `/console/releases/${releaseId}`],
    ['cases', `/console/projects/${projectId}/cases`],
    ['case', `/console/cases/${flipperId}`],
    ['flaky-tests', `/console/projects/${projectId}/flaky-tests`],
    ['quarantine', `/console/projects/${projectId}/quarantine`],
    ['settings', `/console/projects/${projectId}/settings`],
  ];

  /**
   * Opens `path` and waits until its data is in (no "Loading" left), noting every request of
   * the load that failed or was answered 4xx/5xx.
   */
  async function open(path: string): Promise<string[]> {
    const failed: string[] = [];
    const onResponse = (res: { status(): number; url(): string }) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    };
    const onFailed = (req: { url(): string; failure(): { errorText: string } | null }) => {
      // A live stream left behind by the previous page is cancelled, not failed.
      if (req.failure()?.errorText !== 'net::ERR_ABORTED') {
        failed.push(`${req.failure()?.errorText} ${req.url()}`);
      }
    };
    page().on('response', onResponse);
    page().on('requestfailed', onFailed);
    try {
      await page().goto(path);
      await page().getByRole('heading', { level: 1 }).waitFor();
      await page()
        .waitForLoadState('networkidle')
        .catch(() => undefined);
      await page()
        .getByText(/^Loading/)
        .first()
        .waitFor({ state: 'detached', timeout: 5_000 })
        .catch(() => undefined);
    } finally {
      page().off('response', onResponse);
      page().off('requestfailed', onFailed);
    }
    return failed;
  }

  /** How far the page reaches past the window's width (0: it does not scroll sideways). */
  function sidewaysOverflow(p: Page): Promise<number> {
    return p.evaluate(
      '(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)()',
    );
  }

  it('loads the console compressed: brotli over the wire, a fraction of the files', async () => {
    // A browser of its own, nothing cached: the sign-in page is what a first visit loads.
    const first = await openBrowser(stack.base);
    const sizes: Array<{ url: string; wire: number; encoding: string | undefined }> = [];
    const onResponse = async (res: {
      url(): string;
      headers(): Record<string, string>;
      request(): { sizes(): Promise<{ responseBodySize: number; responseHeadersSize: number }> };
    }) => {
      const { responseBodySize, responseHeadersSize } = await res.request().sizes();
      sizes.push({
        url: res.url(),
        wire: responseBodySize + responseHeadersSize,
        encoding: res.headers()['content-encoding'],
      });
    };
    first.page.on('response', onResponse);
    await first.page.goto('/console/');
    await first.page.getByLabel('Operator token').waitFor();
    await first.page.waitForLoadState('networkidle');
    await first.close();

    const assets = sizes.filter((s) => s.url.includes('/console/assets/'));
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) expect(asset.encoding).toBe('br');
    const wire = sizes.reduce((sum, s) => sum + s.wire, 0);
    // The same files as they are on disk, as the service sent them before (no encoding).
    let plain = 0;
    for (const { url } of sizes) {
      const res = await outside.get(url, { headers: { 'Accept-Encoding': 'identity' } });
      plain += (await res.body()).length;
    }
    process.stdout.write(
      `console first load: ${sizes.length} requests, ${(wire / 1024).toFixed(1)} KiB over the wire (brotli, headers included); ${(plain / 1024).toFixed(1)} KiB uncompressed\n`,
    );
    expect(wire).toBeLessThan(plain / 3);
  }, 30_000);

  it.each(WIDTHS)(
    'at %i px, no page scrolls sideways and no request of its load fails',
    async (width) => {
      await page().setViewportSize({ width, height: 900 });
      const problems: string[] = [];
      for (const [name, path] of pages()) {
        const failed = await open(path);
        problems.push(...failed.map((f) => `${name}: ${f}`));
        const overflow = await sidewaysOverflow(page());
        if (overflow > 0) problems.push(`${name}: ${overflow} px sideways`);
        if (width === 800) await screenshot(page(), `narrow-${name}`);
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );

  it('names a favicon the service serves, so no browser asks for /favicon.ico', async () => {
    await open(`/console/projects/${projectId}`);
    const icon = await page().locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/console/favicon.svg');
    const res = await outside.get(icon!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it.each(WIDTHS)('at %i px, the flaky list’s Unquarantine button is in view', async (width) => {
    await page().setViewportSize({ width, height: 900 });
    await open(`/console/projects/${projectId}/flaky-tests`);
    const button = page().getByRole('button', { name: `Unquarantine ${CASES[0].title}` });
    await button.waitFor();
    const box = await button.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
  });

  it.each(WIDTHS)('at %i px, the duration chart’s date labels never overlap', async (width) => {
    await page().setViewportSize({ width, height: 900 });
    await open(`/console/cases/${flipperId}`);
    const chart = page().locator('.duration-chart');
    await chart.waitFor();
    await page().waitForFunction(
      '(() => document.querySelector(".duration-chart")?.dataset.xLabels !== undefined)()',
    );
    const labels = JSON.parse((await chart.getAttribute('data-x-labels')) ?? '[]') as Array<
      [number, number]
    >;
    // More than one label, each ending before the next begins.
    expect(labels.length).toBeGreaterThan(1);
    for (let i = 1; i < labels.length; i++) {
      expect(labels[i][0]).toBeGreaterThan(labels[i - 1][1]);
    }
    await screenshot(page(), `case-duration-chart-${width}`);
  });
});
