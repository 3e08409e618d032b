import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';
/**
 * Where each browser test leaves its screenshot: `docs/console` (which the README links) when
 * `UPDATE_SCREENSHOTS=1`, otherwise a folder outside the checkout, so that a test run changes
 * no tracked file.
 */
export const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? 'docs/console'
    : join(tmpdir(), 'tm-console-screenshots');

/** Flags that keep the browser off the network and quiet: it only talks to the service. */
const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Headless chromium with a profile of its own (deleted on close), trusting the service's
 * self-signed certificate.
 */
export async function openBrowser(baseURL: string): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: QUIET_FLAGS,
    baseURL,
    ignoreHTTPSErrors: true,
    viewport: { width: 1200, height: 760 },
  });
  // Shorter than a test's time limit, so a step that waits in vain names itself.
  context.setDefaultTimeout(10_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The whole page, or only the viewport with `fullPage: false` (a modal dialog: its backdrop
 * covers the viewport, not a full-page capture).
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** The page's serious and critical accessibility violations (axe-core), by rule and target. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')}`));
}

/**
 * The locator's text once it matches `expected` (the page may still be loading); after
 * `ms`, its text as it is, for the test's own assertion to show.
 */
export async function textWhen(
  locator: Locator,
  expected: RegExp | string,
  ms = 5_000,
): Promise<string> {
  const deadline = Date.now() + ms;
  const matches = (text: string) =>
    typeof expected === 'string' ? text.includes(expected) : expected.test(text);
  for (;;) {
    const text = (await locator.count()) === 1 ? ((await locator.textContent()) ?? '') : '';
    if (matches(text) || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The page as it is has no serious or critical accessibility violation (axe-core). */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** What a route answers to play a service that is down: a 503 in the contract's envelope. */
export const SERVICE_DOWN = {
  status: 503,
  contentType: 'application/json',
  body: JSON.stringify({
    error: 'service_unavailable',
    message: 'Down for a moment.',
    details: {},
  }),
};

/**
 * Where `secret` (a key or signing secret the page showed once) lingers in the page: its URL, its
 * markup, its storage. The root tsconfig has no DOM types, so the script is a string.
 */
export function whereKept(
  page: Page,
  secret: string,
): Promise<{ url: boolean; page: boolean; storage: boolean }> {
  return page.evaluate(`(() => {
      const secret = ${JSON.stringify(secret)};
      const inStore = (store) =>
        Object.keys(store).some((k) => k.includes(secret) || store.getItem(k).includes(secret));
      return {
        url: window.location.href.includes(secret),
        page: document.documentElement.outerHTML.includes(secret),
        storage: inStore(localStorage) || inStore(sessionStorage),
      };
    })()`);
}
