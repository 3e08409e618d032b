import type { APIRequestContext } from 'playwright-core';
import { SERVICE_DOWN, expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import { CONSOLE_TOKEN, STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { OPERATOR } from './seed.js';

const TOKEN = CONSOLE_TOKEN;
const COOKIE = '__Host-tm_console';

/**
 * The console in a real browser against the built service (`dist/`, HTTPS with a self-signed
 * certificate): sign-in, the organizations page, sign-out. Each test leaves a screenshot in
 * docs/console/ and checks the page with axe.
 */
describe('web console in a browser', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  /** Another client of the service: the operator token, or a cookie taken from the browser. */
  let outside: APIRequestContext;

  beforeAll(async () => {
    stack = await startConsoleStack('console');
    ({ browser, outside } = stack);
  }, STACK_START_MS);

  afterAll(() => stack?.stop());

  const page = () => browser.page;
  const sessionCookie = async () =>
    (await browser.context.cookies()).find((cookie) => cookie.name === COOKIE);

  /** Signs in from the keyboard: type the token, press Enter. */
  async function signIn(token: string): Promise<void> {
    await page().getByLabel('Operator token').fill('');
    await page().getByLabel('Operator token').focus();
    await page().keyboard.type(token);
    await page().keyboard.press('Enter');
  }

  it('sends a visitor without a session to sign-in, and refuses a wrong token', async () => {
    await page().goto('/console/organizations');
    await page().waitForURL(/\/console\/sign-in\?redirect=/);
    await expectAccessible(page());
    await screenshot(page(), 'sign-in');

    await signIn('not-the-operator-token');
    expect(await textWhen(page().getByRole('alert'), 'That is not the operator token.')).toBe(
      'That is not the operator token.',
    );
    expect(page().url()).toContain('/console/sign-in');
    expect(await sessionCookie()).toBeUndefined();
    await expectAccessible(page());
    await screenshot(page(), 'sign-in-refused');
  }, 30_000);

  it('signs in with the token into an httpOnly, Secure, SameSite=Strict session, leaving the token nowhere in the page', async () => {
    await signIn(TOKEN);
    await page().waitForURL(/\/console\/organizations$/);
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'Organizations')).toBe(
      'Organizations',
    );

    const cookie = await sessionCookie();
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    // What page scripts can read (a string: this file is compiled without the DOM's types).
    const kept = await page().evaluate<{ cookies: string }>(`({
      cookies: document.cookie,
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      html: document.documentElement.outerHTML,
    })`);
    expect(kept.cookies).toBe('');
    expect(JSON.stringify(kept)).not.toContain(TOKEN);

    // A new install: the empty list says what to do.
    await page().getByText('No organizations yet.').waitFor();
    await page().getByRole('link', { name: 'Create the first organization' }).waitFor();
    await expectAccessible(page());
    await screenshot(page(), 'organizations-empty');
  }, 30_000);

  it('creates an organization with a custom limit and lists it with its usage against it', async () => {
    await page().getByRole('link', { name: 'New organization' }).click();
    await page().waitForURL(/\/console\/organizations\/new$/);
    await page().getByLabel('Name').fill(`Console Demo Org`);
    await page().getByLabel('Plan', { exact: true }).selectOption('enterprise');
    await page().getByLabel('A custom limit').check();
    await page().getByLabel('Calls per month').fill('40');
    await expectAccessible(page());
    await screenshot(page(), 'organization-new');
    await page().getByRole('button', { name: 'Create organization' }).click();

    await page().waitForURL(/\/console\/organizations$/);
    const row = page().getByRole('row', { name: new RegExp(`Console Demo Org`) });
    expect(await textWhen(row, 'Enterprise')).toContain('0 of 40');

    // A pipeline of the organization makes 30 calls; the list shows them against the limit.
    const href = await row
      .getByRole('link', { name: 'Console Demo Org', exact: true })
      .getAttribute('href');
    const id = href?.split('/').pop();
    const key = await outside.post(`/internal/v1/organizations/${id}/api-keys`, {
      headers: OPERATOR,
      data: { name: 'pipeline', scopes: ['builds:read'] },
    });
    const { key: apiKey } = await key.json();
    for (let i = 0; i < 30; i++) {
      const call = await outside.get('/api/v1/organizations', {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      expect(call.status()).toBe(200);
    }
    await page().reload();
    expect(await textWhen(row, '30 of 40')).toContain('30 of 40');
    // The per-minute limit comes from a second read, which may land after the list's.
    expect(await textWhen(row, '600')).toMatch(/Enterprise.*600$/);
    const fill = await row.locator('.usage-fill').boundingBox();
    const track = await row.locator('.usage-bar').boundingBox();
    expect((fill?.width ?? 0) / (track?.width ?? 1)).toBeCloseTo(0.75, 2);
    await expectAccessible(page());
    await screenshot(page(), 'organizations');
  }, 30_000);

  it('shows its loading and error states, and tries again', async () => {
    let answer: 'slow' | 'fail' = 'slow';
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page().route('**/internal/v1/organizations?**', async (route) => {
      if (answer === 'slow') {
        await released;
        return route.continue();
      }
      return route.fulfill(SERVICE_DOWN);
    });
    try {
      await page().goto('/console/organizations');
      expect(await textWhen(page().getByRole('status'), 'Loading organizations…')).toBe(
        'Loading organizations…',
      );
      await screenshot(page(), 'organizations-loading');
      answer = 'fail';
      release();
      await page().goto('/console/organizations?offset=1000000');
      const alert = page().getByRole('alert');
      expect(await textWhen(alert, 'Down for a moment.', 15_000)).toContain(
        'Could not load this page (503): Down for a moment.',
      );
      await expectAccessible(page());
      await screenshot(page(), 'organizations-error');
    } finally {
      await page().unroute('**/internal/v1/organizations?**');
    }
    await page().getByRole('button', { name: 'Try again' }).click();
    await page().getByText('This page is past the last organization.').waitFor();
  }, 60_000);

  it('edits it from a page whose URL can be shared, and the service has the change', async () => {
    await page().goto('/console/organizations');
    await page().getByRole('link', { name: `Console Demo Org`, exact: true }).click();
    await page().waitForURL(/\/console\/organizations\/[0-9a-f-]{36}$/);
    const id = page().url().split('/').pop() as string;
    // A shared link opens the same page.
    await page().reload();
    expect(await textWhen(page().getByRole('heading', { level: 1 }), `Edit Console Demo Org`)).toBe(
      `Edit Console Demo Org`,
    );
    expect(await page().getByLabel('Name').inputValue()).toBe(`Console Demo Org`);

    await page().getByLabel('Name').fill(`Console Renamed Org`);
    await page().getByLabel('Plan', { exact: true }).selectOption('pro');
    await page().getByLabel('The plan’s limit').check();
    await expectAccessible(page());
    await screenshot(page(), 'organization-edit');
    await page().getByRole('button', { name: 'Save changes' }).click();

    await page().waitForURL(/\/console\/organizations$/);
    const row = page().getByRole('row', { name: new RegExp(`Console Renamed Org`) });
    expect(await textWhen(row, 'Pro')).toContain('Pro');
    expect(await textWhen(row, '30 of 1,000')).toContain('30 of 1,000');
    const stored = await outside.get(`/internal/v1/organizations/${id}`, {
      headers: OPERATOR,
    });
    expect(await stored.json()).toMatchObject({
      name: `Console Renamed Org`,
      plan: 'pro',
      monthly_call_limit: 1000,
      calls_this_period: 30,
    });
  }, 30_000);

  it('pages through organizations with ?offset= in the URL', async () => {
    for (let i = 0; i < 26; i++) {
      const made = await outside.post('/internal/v1/organizations', {
        headers: OPERATOR,
        data: { name: `Console paging ${i}`, plan: 'pro' },
      });
      expect(made.status()).toBe(201);
    }
    await page().goto('/console/organizations');
    const pages = page().getByRole('navigation', { name: 'Pages' });
    expect(await textWhen(pages, '1–25 of 27')).toBe('1–25 of 27Next');
    await page().getByRole('link', { name: 'Next' }).click();
    await page().waitForURL(/\/console\/organizations\?offset=25$/);
    expect(await textWhen(pages, '26–27 of 27')).toBe('26–27 of 27Previous');
    // The page's URL opens the same page.
    await page().reload();
    expect(await textWhen(pages, '26–27 of 27')).toBe('26–27 of 27Previous');
    await page().getByRole('link', { name: 'Previous' }).click();
    await page().waitForURL(/\/console\/organizations$/);
    await expectAccessible(page());
  }, 60_000);

  it('returns to sign-in when the session ends elsewhere, then comes back to the page', async () => {
    await page().goto('/console/organizations/new');
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'New organization')).toBe(
      'New organization',
    );
    // The session ends outside this page (another tab signs out with its cookie).
    const cookie = await sessionCookie();
    const described = await outside.get('/internal/v1/session', {
      headers: { Cookie: `${COOKIE}=${cookie?.value}` },
    });
    const ended = await outside.delete('/internal/v1/session', {
      headers: {
        Cookie: `${COOKIE}=${cookie?.value}`,
        'X-CSRF-Token': (await described.json()).csrf_token,
      },
    });
    expect(ended.status()).toBe(204);

    await page().getByLabel('Name').fill('Never created');
    await page().getByRole('button', { name: 'Create organization' }).click();
    await page().waitForURL(/\/console\/sign-in\?redirect=/);
    await signIn(TOKEN);
    await page().waitForURL(/\/console\/organizations\/new$/);
  }, 30_000);

  it('signs out: the session is refused afterwards and the console shows sign-in', async () => {
    await page().goto('/console/organizations');
    const before = await sessionCookie();
    expect(before).toBeDefined();
    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().waitForURL(/\/console\/sign-in/);
    expect(await sessionCookie()).toBeUndefined();

    const replayed = await outside.get('/internal/v1/organizations', {
      headers: { Cookie: `${COOKIE}=${before?.value}` },
    });
    expect(replayed.status()).toBe(401);
    await page().goto('/console/organizations');
    await page().waitForURL(/\/console\/sign-in\?redirect=/);
    await expectAccessible(page());
    await screenshot(page(), 'signed-out');
  }, 30_000);
});
