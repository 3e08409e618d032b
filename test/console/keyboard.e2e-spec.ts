import type { Page } from 'playwright-core';
import { screenshot, textWhen, type Browser } from './browser.js';
import { CONSOLE_TOKEN, STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { json, seedApiKey, seedOrganization, seedProject } from './seed.js';

/** What has the keyboard's focus: its tag, its text (or label) and whether a ring shows it. */
interface Focused {
  tag: string;
  text: string;
  ring: boolean;
}

/** Evaluated in the page (a string: the tests' TypeScript has no DOM types). */
const FOCUSED = `(() => {
  const element = document.activeElement;
  if (element === null || element === document.body) return { tag: 'body', text: '', ring: false };
  const style = getComputedStyle(element);
  return {
    tag: element.tagName.toLowerCase(),
    text: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
    ring:
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
      style.boxShadow !== 'none',
  };
})()`;

function focused(page: Page): Promise<Focused> {
  return page.evaluate<Focused>(FOCUSED);
}

/**
 * Presses Tab until the focus is on an element whose text matches `text` (at most `max`
 * times), as a keyboard user would; answers what has the focus then.
 */
async function tabTo(page: Page, text: RegExp, max = 40): Promise<Focused> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (now.tag !== 'body' && text.test(now.text)) return now;
  }
  throw new Error(`no element matching ${text} within ${max} presses of Tab`);
}

/**
 * The console without a mouse: every step from sign-in to a run's results, its filter and its
 * pages is reached with Tab and used with Enter or the arrow keys, and whatever has the focus
 * shows a focus ring (WCAG 2.4.7).
 */
describe('web console from the keyboard', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  const page = () => browser.page;
  let project: { id: string };
  let run: { id: string };

  beforeAll(async () => {
    stack = await startConsoleStack('console_keyboard');
    browser = stack.browser;
    const { outside } = stack;
    const org = await seedOrganization(outside, { name: 'Keyboard Co', plan: 'pro' });
    const key = await seedApiKey(outside, org.id, ['testruns:create', 'results:submit']);
    project = await seedProject(outside, org.id, { name: 'Checkout', key: 'CHK' });
    // 60 results, so that the run's results take more than one page; every 4th fails.
    const results = Array.from({ length: 60 }, (_, i) => ({
      automation_id: `checkout.case_${String(i).padStart(2, '0')}`,
      status: i % 4 === 0 ? 'failed' : 'passed',
    }));
    const ingested = await json<{ test_run_id: string }>(
      outside.post('/api/v1/results/ingest', {
        headers: { Authorization: `Bearer ${key}` },
        data: { project_id: project.id, run_name: 'Keyboard run', results },
      }),
    );
    run = { id: ingested.test_run_id };
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  it('signs in, opens an organization’s projects, a project’s runs and a run with Tab and Enter', async () => {
    await page().goto('/console/sign-in');
    await page().getByLabel('Operator token').waitFor();
    expect(await tabTo(page(), /^$/)).toMatchObject({ tag: 'input', ring: true });
    await page().keyboard.type(CONSOLE_TOKEN);
    await page().keyboard.press('Enter');
    await page().waitForURL(/\/console\/organizations$/);

    // The organization's name, then the link to its projects in the same row.
    const link = await tabTo(page(), /^Keyboard Co$/);
    expect(link).toMatchObject({ tag: 'a', ring: true });
    await screenshot(page(), 'keyboard-focus-organizations');
    const projects = await tabTo(page(), /^Projects of Keyboard Co$/);
    expect(projects).toMatchObject({ tag: 'a', ring: true });
    await page().keyboard.press('Enter');
    await page().waitForURL(/\/projects$/);

    expect(await tabTo(page(), /^Checkout$/)).toMatchObject({ tag: 'a', ring: true });
    await page().keyboard.press('Enter');
    await page().waitForURL(new RegExp(`/console/projects/${project.id}$`));

    expect(await tabTo(page(), /^Keyboard run$/)).toMatchObject({ tag: 'a', ring: true });
    await page().keyboard.press('Enter');
    await page().waitForURL(new RegExp(`/console/runs/${run.id}`));
    expect(await textWhen(page().locator('dd[data-count="failed"]'), '15')).toBe('15');
  }, 60_000);

  it('filters a run’s results with the arrow keys and pages through them with Enter', async () => {
    await page().goto(`/console/runs/${run.id}`);
    await page().locator('table.results tbody tr').first().waitFor();

    const filter = await tabTo(page(), /All/);
    expect(filter).toMatchObject({ tag: 'select', ring: true });
    // From "All": the next option is the first status. Each change is a new, shareable URL.
    await page().keyboard.press('ArrowDown');
    await page().waitForURL(/status=/);
    const status = new URL(page().url()).searchParams.get('status');
    expect(status).not.toBeNull();

    await page().keyboard.press('ArrowDown');
    await page().waitForURL((url) => url.searchParams.get('status') !== status);
    // Back to every result: 60, more than one page.
    await page().goto(`/console/runs/${run.id}`);
    await page().locator('table.results tbody tr').first().waitFor();
    const next = await tabTo(page(), /Next/, 200);
    expect(next).toMatchObject({ tag: 'a', ring: true });
    await page().keyboard.press('Enter');
    await page().waitForURL(/offset=\d+/);
    await screenshot(page(), 'keyboard-focus-run-pager');
  }, 60_000);
});
