import { readFileSync } from 'node:fs';
import type { APIRequestContext } from 'playwright-core';
import {
  SERVICE_DOWN,
  expectAccessible,
  screenshot,
  textWhen,
  whereKept,
  type Browser,
} from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { OPERATOR, seedOrganization, signIn } from './seed.js';

const KEYS_ROUTE = '**/internal/v1/organizations/*/api-keys?**';

/**
 * An organization's API keys in a real browser against the built service: created with two
 * scopes from the keyboard, shown once (copied), used against the public API, listed by its
 * prefix only, deleted after confirming and then refused. Screenshots go to docs/console/.
 */
describe('web console: API keys of an organization', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  /** The public API's callers and the operator's setup, outside the browser. */
  let outside: APIRequestContext;
  let org: { id: string; name: string };
  /** The key the page showed once. */
  let shownKey: string;

  beforeAll(async () => {
    stack = await startConsoleStack('console_api_keys');
    ({ browser, outside } = stack);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: stack.base,
    });
    org = await seedOrganization(outside, { name: 'Keys Ltd', plan: 'pro' });
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const keysUrl = () => new RegExp(`/console/organizations/${org.id}/api-keys$`);

  const kept = () => whereKept(page(), shownKey);

  it('goes from the organizations to one’s keys, none yet', async () => {
    await page().goto('/console/organizations');
    await signIn(page());
    await page().waitForURL(/\/console\/organizations$/);

    await page().getByRole('link', { name: 'API keys of Keys Ltd' }).click();
    await page().waitForURL(keysUrl());
    // The organization's own page links there too.
    await page().goto(`/console/organizations/${org.id}`);
    await page().getByRole('link', { name: 'API keys', exact: true }).click();
    await page().waitForURL(keysUrl());
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'API keys of Keys Ltd')).toBe(
      'API keys of Keys Ltd',
    );
    await page().getByText('This organization has no API keys yet.').waitFor();
    // The scopes offered are the internal API document's, all of them, in its order.
    const document = JSON.parse(readFileSync('internal-openapi.json', 'utf8'));
    const declared: string[] =
      document.components.schemas.CreateApiKeyDto.properties.scopes.items.enum;
    expect(declared).toContain('projects:read');
    const offered = await page()
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('value')));
    expect(offered).toEqual(declared);
    await expectAccessible(page());
    await screenshot(page(), 'api-keys-empty');
  }, 30_000);

  it('shows the service’s refusal of a key without scopes', async () => {
    await page().getByLabel('Name').fill('No scopes');
    await page().getByRole('button', { name: 'Create key' }).click();
    expect(await textWhen(page().getByRole('alert'), 'scopes')).toMatch(/scopes/);
    expect(await page().getByRole('dialog').count()).toBe(0);
    await page().getByText('This organization has no API keys yet.').waitFor();
  }, 30_000);

  it('creates a key with two scopes from the keyboard and shows it once, with a copy button', async () => {
    await page().getByLabel('Name').fill('GitHub Actions');
    for (const scope of ['testruns:read', 'projects:read']) {
      await page()
        .getByRole('checkbox', { name: new RegExp(`^${scope}`) })
        .focus();
      await page().keyboard.press('Space');
    }
    await page().getByLabel('Name').focus();
    await page().keyboard.press('Enter');

    const dialog = page().getByRole('dialog', { name: 'Key “GitHub Actions” created' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('it will not be shown again');
    shownKey = (await dialog.getByLabel('The new API key').textContent()) ?? '';
    expect(shownKey).toMatch(/^svc_live_\S{20,}$/);
    // The copy button has the focus: Enter copies the key.
    await page().keyboard.press('Enter');
    expect(await textWhen(dialog.getByRole('status'), 'Copied')).toBe('Copied to the clipboard.');
    expect(await page().evaluate('navigator.clipboard.readText()')).toBe(shownKey);
    await expectAccessible(page());
    await screenshot(page(), 'api-key-created', { fullPage: false });

    const used = await outside.get('/api/v1/organizations', {
      headers: { Authorization: `Bearer ${shownKey}` },
    });
    expect(used.status()).toBe(200);
    expect((await used.json()).data.map((o: { id: string }) => o.id)).toEqual([org.id]);

    // While the dialog is open the key is in the page (so the checks below can see it)…
    expect(await kept()).toMatchObject({ page: true, storage: false, url: false });
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }, 30_000);

  it('lists the key by its prefix, its scopes and last use, and never shows it again', async () => {
    const row = page().getByRole('row', { name: /GitHub Actions/ });
    expect(await textWhen(row, 'projects:read')).toContain('testruns:read');
    const prefix = (await row.locator('code').first().textContent())?.replace('…', '') ?? '';
    expect(prefix.length).toBeGreaterThan(8);
    expect(shownKey.startsWith(prefix)).toBe(true);

    expect(await kept()).toEqual({ url: false, page: false, storage: false });

    // The list says when the key was last used (by the call above; the service writes that
    // after answering, so a reload may come first once).
    const lastUsed = page()
      .getByRole('row', { name: /GitHub Actions/ })
      .getByRole('cell')
      .nth(2);
    expect(await textWhen(lastUsed, 'Never')).toBe('Never');
    let shown = 'Never';
    for (let tries = 0; tries < 20 && shown === 'Never'; tries++) {
      await page().reload();
      shown = await textWhen(lastUsed, /\d{4}|Never/);
      if (shown === 'Never') await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(shown).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, /);
    expect(await kept()).toEqual({ url: false, page: false, storage: false });
    await expectAccessible(page());
    await screenshot(page(), 'api-keys');
  }, 30_000);

  it('deletes the key only once confirmed; the public API refuses it afterwards', async () => {
    await page().getByRole('button', { name: 'Delete GitHub Actions' }).click();
    let dialog = page().getByRole('dialog', { name: 'Delete the key “GitHub Actions”?' });
    await dialog.waitFor();
    // Cancel has the focus: Enter keeps the key.
    await page().keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(
      (
        await outside.get('/api/v1/organizations', {
          headers: { Authorization: `Bearer ${shownKey}` },
        })
      ).status(),
    ).toBe(200);

    await page().getByRole('button', { name: 'Delete GitHub Actions' }).click();
    dialog = page().getByRole('dialog', { name: 'Delete the key “GitHub Actions”?' });
    await dialog.waitFor();
    await expectAccessible(page());
    await screenshot(page(), 'api-key-delete', { fullPage: false });
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page().getByText('This organization has no API keys yet.').waitFor();

    const refused = await outside.get('/api/v1/organizations', {
      headers: { Authorization: `Bearer ${shownKey}` },
    });
    expect(refused.status()).toBe(401);
  }, 30_000);

  it('pages through the keys, newest first, in URLs that can be shared', async () => {
    for (let n = 1; n <= 26; n++) {
      const made = await outside.post(`/internal/v1/organizations/${org.id}/api-keys`, {
        headers: OPERATOR,
        data: { name: `Runner ${String(n).padStart(2, '0')}`, scopes: ['results:submit'] },
      });
      expect(made.status()).toBe(201);
    }
    await page().goto(`/console/organizations/${org.id}/api-keys`);
    const pages = page().getByRole('navigation', { name: 'Pages' });
    expect(await textWhen(pages, '1–25 of 26')).toBe('1–25 of 26Next');
    expect(await page().locator('table.api-keys tbody tr').first().textContent()).toContain(
      'Runner 26',
    );
    await page().getByRole('link', { name: 'Next' }).click();
    await page().waitForURL(/\/api-keys\?offset=25$/);
    expect(await textWhen(pages, '26–26 of 26')).toBe('26–26 of 26Previous');
    const rows = page().locator('table.api-keys tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Runner 01');
  }, 30_000);

  it('shows its loading and error states, and tries again', async () => {
    let answer: 'slow' | 'fail' = 'slow';
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page().route(KEYS_ROUTE, async (route) => {
      if (answer === 'slow') {
        await released;
        return route.continue();
      }
      return route.fulfill(SERVICE_DOWN);
    });
    try {
      await page().goto(`/console/organizations/${org.id}/api-keys?offset=25`);
      expect(await textWhen(page().getByRole('status'), 'Loading API keys…')).toBe(
        'Loading API keys…',
      );
      await screenshot(page(), 'api-keys-loading');
      answer = 'fail';
      release();
      await page().goto(`/console/organizations/${org.id}/api-keys?offset=50`);
      expect(await textWhen(page().getByRole('alert'), 'Down for a moment.', 15_000)).toContain(
        'Could not load this page (503): Down for a moment.',
      );
      await expectAccessible(page());
      await screenshot(page(), 'api-keys-error');
    } finally {
      await page().unroute(KEYS_ROUTE);
    }
    await page().getByRole('button', { name: 'Try again' }).click();
    await page().getByText('This page is past the last key.').waitFor();
  }, 30_000);
});
