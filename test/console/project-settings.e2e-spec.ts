import type { APIRequestContext } from 'playwright-core';
import { expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { OPERATOR, json, seedOrganization, seedProject, signIn } from './seed.js';

const WIDTHS = [1280, 800] as const;

/**
 * A project's settings page (the quality gate's minimum pass rate and minimum tests) and its
 * quarantine list (every case in quarantine, flaky or not), in a real browser against the
 * built service. Screenshots go to docs/console/.
 */
describe('web console: project settings and the quarantine list', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let projectId: string;
  let held: { id: string; title: string };

  beforeAll(async () => {
    stack = await startConsoleStack('console_project_settings');
    ({ browser, outside } = stack);
    const org = await seedOrganization(outside, { name: 'Shop Ltd', plan: 'pro' });
    const project = await seedProject(outside, org.id, { name: 'Web shop', key: 'WEB' });
    projectId = project.id;
    // A case that never ran, so it is on no flaky list: quarantined for another cause.
    held = await json<{ id: string; title: string }>(
      outside.post(`/internal/v1/projects/${projectId}/testcases`, {
        headers: OPERATOR,
        data: { title: 'Exports the invoice as PDF', automation_id: 'billing.Invoice.pdf' },
      }),
    );
    await json(
      outside.put(`/internal/v1/projects/${projectId}/quarantine/${held.id}`, {
        headers: OPERATOR,
        data: { reason: 'The PDF service is being replaced; QA-88' },
      }),
      200,
    );
    await browser.page.goto(`/console/projects/${projectId}/settings`);
    await signIn(browser.page);
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const settings = () =>
    json<{ gate_min_pass_rate: number | null; gate_min_tests: number }>(
      outside.get(`/internal/v1/projects/${projectId}/gate-settings`, { headers: OPERATOR }),
      200,
    );

  it.each(WIDTHS)('at %i px, shows the gate settings as stored', async (width) => {
    await page().setViewportSize({ width, height: 900 });
    await page().goto(`/console/projects/${projectId}/settings`);
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'Web shop')).toBe(
      'Settings of Web shop',
    );
    await page().getByLabel('Minimum executed tests').waitFor();
    expect(await page().getByLabel('Minimum pass rate (%)').inputValue()).toBe('');
    expect(await page().getByLabel('Minimum executed tests').inputValue()).toBe('1');
    await expectAccessible(page());
    await screenshot(page(), `project-settings-${width}`);
  });

  it('saves a minimum pass rate and minimum tests into the project’s gate settings', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await page().goto(`/console/projects/${projectId}/settings`);
    await page().getByLabel('Minimum pass rate (%)').fill('95');
    await page().getByLabel('Minimum executed tests').fill('200');
    await page().getByRole('button', { name: 'Save gate settings' }).click();
    await page().getByText('Saved.').waitFor();
    expect(await settings()).toMatchObject({ gate_min_pass_rate: 0.95, gate_min_tests: 200 });

    // Read again, the page shows what was stored; clearing the rate clears it.
    await page().reload();
    expect(await page().getByLabel('Minimum pass rate (%)').inputValue()).toBe('95');
    await page().getByLabel('Minimum pass rate (%)').fill('');
    await page().getByRole('button', { name: 'Save gate settings' }).click();
    await page().getByText('Saved.').waitFor();
    expect(await settings()).toMatchObject({ gate_min_pass_rate: null, gate_min_tests: 200 });
  });

  it('sets the defect URL template in its own section of the settings', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await page().goto(`/console/projects/${projectId}/settings`);
    await page().getByRole('heading', { name: 'Defect links' }).waitFor();
    const form = page().getByRole('form', { name: 'Defect links' });
    await form.getByLabel('Defect URL template').fill('https://jira.example.com/browse/{id}');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Saved.').waitFor();
    const stored = await json<{ defect_url_template: string | null }>(
      outside.get(`/internal/v1/projects/${projectId}`, { headers: OPERATOR }),
      200,
    );
    expect(stored.defect_url_template).toBe('https://jira.example.com/browse/{id}');
    await page().reload();
    expect(
      await page()
        .getByRole('form', { name: 'Defect links' })
        .getByLabel('Defect URL template')
        .inputValue(),
    ).toBe('https://jira.example.com/browse/{id}');
    await expectAccessible(page());
  });

  it('sets how long the project keeps its runs, and refuses a number the service does not take', async () => {
    await page().setViewportSize({ width: 800, height: 900 });
    await page().goto(`/console/projects/${projectId}/settings`);
    const form = page().getByRole('form', { name: 'Retention' });
    await form.getByLabel('Keep runs for (days)').fill('0');
    await form.getByRole('button', { name: 'Save retention' }).click();
    expect(await textWhen(page().getByRole('alert'), 'retention_days')).toContain(
      'retention_days must be an integer from 1 to 3650',
    );
    const kept = () =>
      json<{ retention_days: number | null }>(
        outside.get(`/internal/v1/projects/${projectId}/retention`, { headers: OPERATOR }),
        200,
      );
    expect((await kept()).retention_days).toBeNull();
    await form.getByLabel('Keep runs for (days)').fill('90');
    await form.getByRole('button', { name: 'Save retention' }).click();
    await form.getByText('Saved.').waitFor();
    expect((await kept()).retention_days).toBe(90);
    await page().reload();
    expect(
      await page()
        .getByRole('form', { name: 'Retention' })
        .getByLabel('Keep runs for (days)')
        .inputValue(),
    ).toBe('90');
    await expectAccessible(page());
    await screenshot(page(), 'project-settings-retention-800');
  });

  it('shows the service’s refusal of a bad value, and stores nothing', async () => {
    await page().goto(`/console/projects/${projectId}/settings`);
    await page().getByLabel('Minimum executed tests').fill('-3');
    await page().getByLabel('Minimum pass rate (%)').fill('80');
    await page().getByRole('button', { name: 'Save gate settings' }).click();
    const alert = page().getByRole('alert');
    expect(await textWhen(alert, 'gate_min_tests')).toContain(
      'gate_min_tests must be an integer from 0',
    );
    expect(await page().getByLabel('Minimum executed tests').getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await settings()).toMatchObject({ gate_min_pass_rate: null, gate_min_tests: 200 });
    await expectAccessible(page());
    await screenshot(page(), 'project-settings-refused');
  });

  it.each(WIDTHS)(
    'at %i px, lists a case in quarantine that is not flaky, with Unquarantine in view',
    async (width) => {
      await page().setViewportSize({ width, height: 900 });
      await page().goto(`/console/projects/${projectId}/quarantine`);
      const row = page().getByRole('row', { name: new RegExp(held.title) });
      expect(await textWhen(row, 'QA-88')).toContain('The PDF service is being replaced; QA-88');
      expect(await row.textContent()).toContain('No expiry');
      expect(await row.locator('.badge.flaky').count()).toBe(0);
      const button = page().getByRole('button', { name: `Unquarantine ${held.title}` });
      const box = await button.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await expectAccessible(page());
      await screenshot(page(), `quarantine-list-${width}`);
    },
  );

  it('takes the case out of quarantine from the list', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    await page().goto(`/console/projects/${projectId}/quarantine`);
    await page()
      .getByRole('button', { name: `Unquarantine ${held.title}` })
      .click();
    const dialog = page().getByRole('dialog', { name: /out of quarantine/ });
    await dialog.getByRole('button', { name: 'Take out of quarantine' }).click();
    await page().getByText('No test case is in quarantine.').waitFor();
    const list = await json<{ data: unknown[] }>(
      outside.get(`/internal/v1/projects/${projectId}/quarantine`, { headers: OPERATOR }),
      200,
    );
    expect(list.data).toEqual([]);
  });
});
