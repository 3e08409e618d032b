import { request, type Page } from 'playwright-core';
import { freePort } from '../support/process.js';
import { expectAccessible, screenshot, textWhen, type Browser } from './browser.js';
import {
  startTestProvider,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
  type TestAccount,
  type TestProvider,
} from './openid-provider.js';
import { CONSOLE_TOKEN, STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';

const COOKIE = '__Host-tm_console';
const FLOW_COOKIE = '__Host-tm_oidc_flow';
const CALLBACK = '/internal/v1/session/oidc/callback';
const OPERATORS = 'tm-operators';

const ACCOUNTS: Record<string, TestAccount> = {
  ada: { email: 'ada@example.com', email_verified: true, groups: [OPERATORS, 'staff'] },
  eve: { email: 'eve@elsewhere.test', email_verified: true, groups: [OPERATORS] },
  bob: { email: 'bob@example.com', email_verified: true, groups: ['staff'] },
};

/**
 * The console's sign-in through a real OpenID provider (`oidc-provider` in this process, on
 * loopback) against the built service: the provider's login and consent pages, who may be an
 * operator, state and replay refusals, sign-out, and the token form turned off.
 */
describe('console sign-in through an OpenID provider', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let provider: TestProvider | null = null;
  let providerPort: number;
  let redirectUri: string;

  beforeAll(async () => {
    providerPort = await freePort();
    // The provider is not up yet: the service must start without it.
    stack = await startConsoleStack('oidc', (base) => ({
      PUBLIC_URL: base,
      OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      OIDC_CLIENT_ID: TEST_CLIENT_ID,
      OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
      OIDC_ALLOWED_EMAIL_DOMAINS: 'example.com',
      OIDC_OPERATOR_GROUP: OPERATORS,
      OIDC_SCOPES: 'openid email groups',
      OIDC_PROVIDER_NAME: 'Test SSO',
    }));
    browser = stack.browser;
    redirectUri = `${stack.base}${CALLBACK}`;
  }, STACK_START_MS);

  afterAll(async () => {
    await stack?.stop();
    await provider?.close();
  });

  const page = () => browser.page;
  const cookieOf = async (b: Browser, name = COOKIE) =>
    (await b.context.cookies()).find((cookie) => cookie.name === name);

  /**
   * From the console's sign-in page through the provider's pages, as `account`. The provider's
   * own session is forgotten first, so that it asks who is signing in each time.
   */
  async function signInAs(account: string, p: Page = page()): Promise<void> {
    await p.context().clearCookies({ domain: '127.0.0.1' });
    await p.getByRole('link', { name: 'Sign in with Test SSO' }).click();
    await p.getByLabel('Account').fill(account);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('button', { name: 'Allow' }).click();
  }

  async function refusal(p: Page = page()): Promise<string> {
    return textWhen(p.locator('#sign-in-refused'), /\w/);
  }

  it('shows the provider’s button and a disabled token form, and says so when the provider is down', async () => {
    await page().goto('/console/organizations');
    await page().waitForURL(/\/console\/sign-in\?redirect=/);
    const button = page().getByRole('link', { name: 'Sign in with Test SSO' });
    await button.waitFor();
    expect(await page().getByLabel('Operator token').isDisabled()).toBe(true);

    await button.click();
    await page().waitForURL(/\/console\/sign-in\?refused=provider_unavailable/);
    expect(await refusal()).toMatch(/identity provider cannot be reached/);
    expect(await cookieOf(browser)).toBeUndefined();
    expect(stack.service.child.exitCode).toBeNull();

    provider = await startTestProvider(providerPort, redirectUri, ACCOUNTS);
    await page().goto('/console/sign-in');
    await button.waitFor();
    await expectAccessible(page());
    await screenshot(page(), 'sign-in-sso');
  }, 30_000);

  it('signs an operator in through the provider’s login and consent pages, back to the page asked for', async () => {
    const callbacks: string[] = [];
    page().on('request', (request) => {
      if (request.url().includes(CALLBACK)) callbacks.push(request.url());
    });
    await page().goto('/console/organizations?offset=0');
    await page().waitForURL(/\/console\/sign-in\?redirect=/);
    await signInAs('ada');
    await page().waitForURL(/\/console\/organizations/);
    expect(await textWhen(page().locator('.who'), 'ada@example.com')).toBe(
      'Signed in as ada@example.com',
    );
    expect(await cookieOf(browser, FLOW_COOKIE)).toBeUndefined();
    const cookie = await cookieOf(browser);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });

    const session = await stack.outside.get('/internal/v1/session', {
      headers: { Cookie: `${COOKIE}=${cookie?.value}` },
    });
    expect(await session.json()).toMatchObject({
      method: 'oidc',
      subject: 'ada',
      email: 'ada@example.com',
    });

    // Neither the provider's code nor the client secret is in the service's logs.
    expect(callbacks).toHaveLength(1);
    const code = new URL(callbacks[0]).searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThan(10);
    expect(stack.service.output()).not.toContain(code);
    expect(stack.service.output()).not.toContain(TEST_CLIENT_SECRET);
    expect(stack.service.output()).not.toContain(cookie?.value ?? '');

    // The same callback again (a replay) opens nothing: the flow was used up.
    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().waitForURL(/\/console\/sign-in/);
    await page().goto(callbacks[0]);
    await page().waitForURL(/\/console\/sign-in\?refused=expired/);
    expect(await refusal()).toMatch(/already used/);
    expect(await cookieOf(browser)).toBeUndefined();
  }, 30_000);

  it('ends the provider’s session at sign-out: the API answers 401 and the page returns to sign-in', async () => {
    await page().goto('/console/organizations');
    await signInAs('ada');
    await page().waitForURL(/\/console\/organizations/);
    const cookie = await cookieOf(browser);
    const withCookie = { headers: { Cookie: `${COOKIE}=${cookie?.value}` } };
    expect((await stack.outside.get('/internal/v1/organizations', withCookie)).status()).toBe(200);

    // A sign-in started and abandoned at the provider's page leaves that session as it was.
    await page().goto('/console/sign-in');
    await page().context().clearCookies({ domain: '127.0.0.1' });
    await page().getByRole('link', { name: 'Sign in with Test SSO' }).click();
    await page().getByLabel('Account').waitFor();
    await page().goto('/console/organizations');
    await page().waitForURL(/\/console\/organizations$/);
    expect((await stack.outside.get('/internal/v1/organizations', withCookie)).status()).toBe(200);

    // Signing in again gets a new session and ends the one the browser held (no fixation).
    await page().goto('/console/sign-in');
    await signInAs('ada');
    await page().waitForURL(/\/console\/organizations/);
    const renewed = await cookieOf(browser);
    expect(renewed?.value).not.toBe(cookie?.value);
    expect((await stack.outside.get('/internal/v1/session', withCookie)).status()).toBe(401);
    const withRenewed = { headers: { Cookie: `${COOKIE}=${renewed?.value}` } };
    expect((await stack.outside.get('/internal/v1/organizations', withRenewed)).status()).toBe(200);

    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().waitForURL(/\/console\/sign-in/);
    expect((await stack.outside.get('/internal/v1/organizations', withRenewed)).status()).toBe(401);
    expect((await stack.outside.get('/internal/v1/session', withRenewed)).status()).toBe(401);
    await page().goto('/console/organizations');
    await page().waitForURL(/\/console\/sign-in\?redirect=/);
  }, 30_000);

  it.each([
    ['eve', 'email_domain', /email address is not in a domain allowed/],
    ['bob', 'not_in_group', /not in the group allowed/],
  ])(
    'refuses %s (%s) with a message and no session',
    async (account, reason, message) => {
      await page().goto('/console/sign-in');
      await signInAs(account);
      await page().waitForURL(new RegExp(`/console/sign-in\\?refused=${reason}`));
      expect(await refusal()).toMatch(message);
      expect(await cookieOf(browser)).toBeUndefined();
      await page().goto('/console/organizations');
      await page().waitForURL(/\/console\/sign-in\?redirect=/);
      if (account === 'eve') {
        await page().goto(`/console/sign-in?refused=${reason}`);
        await refusal();
        await expectAccessible(page());
        await screenshot(page(), 'sign-in-sso-refused');
      }
    },
    30_000,
  );

  it('refuses a callback that did not start in this browser (state), even with a valid code', async () => {
    // An attacker signs in as themselves and keeps their callback link, code unused...
    const stolen = await unusedCallbackFor('ada');
    expect(new URL(stolen).searchParams.get('code')).toBeTruthy();

    // ...and the victim, who has a sign-in of its own under way, is sent its callback.
    await browser.context.clearCookies({ domain: '127.0.0.1' });
    await page().goto('/console/sign-in');
    await page().getByRole('link', { name: 'Sign in with Test SSO' }).click();
    await page().getByLabel('Account').waitFor();
    expect(await cookieOf(browser, FLOW_COOKIE)).toBeDefined();
    await page().goto(stolen);
    await page().waitForURL(/\/console\/sign-in\?refused=state/);
    expect(await refusal()).toMatch(/did not come back to the browser that started it/);
    expect(await cookieOf(browser)).toBeUndefined();

    // Without any flow in the browser, the same link is refused too.
    await page().goto(stolen);
    await page().waitForURL(/\/console\/sign-in\?refused=expired/);
    expect(await cookieOf(browser)).toBeUndefined();
  }, 30_000);

  it('never lands outside the console after sign-in, whatever the redirect asked', async () => {
    await browser.context.clearCookies({ domain: '127.0.0.1' });
    await page().goto('/internal/v1/session/oidc?redirect=https://evil.example/console/x');
    await signInFromProviderPage('ada');
    await page().waitForURL(/\/console\/organizations$/);
    expect(new URL(page().url()).origin).toBe(stack.base);
    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().waitForURL(/\/console\/sign-in/);
  }, 30_000);

  it('refuses the operator token’s sign-in while the provider is configured', async () => {
    const res = await stack.outside.post('/internal/v1/session', {
      data: { token: CONSOLE_TOKEN },
    });
    expect(res.status()).toBe(403);
    expect(res.headers()['set-cookie']).toBeUndefined();
    expect((await res.json()).message).toMatch(/identity provider/);
    // The token itself still works for automation.
    const direct = await stack.outside.get('/internal/v1/organizations', {
      headers: { Authorization: `Bearer ${CONSOLE_TOKEN}` },
    });
    expect(direct.status()).toBe(200);
    const options = await stack.outside.get('/internal/v1/session/options');
    expect(await options.json()).toEqual({ method: 'oidc', provider: 'Test SSO' });
  });

  /**
   * Someone else's sign-in, by HTTP: through the provider's pages up to the redirect back to
   * the service, which is not followed: the callback URL, its code still unused.
   */
  async function unusedCallbackFor(account: string): Promise<string> {
    const other = await request.newContext({ ignoreHTTPSErrors: true });
    try {
      let res = await other.get(`${stack.base}/internal/v1/session/oidc`, { maxRedirects: 0 });
      for (let step = 0; step < 12; step++) {
        const location = new URL(res.headers().location, res.url());
        if (location.pathname === CALLBACK) return location.href;
        if (location.pathname.startsWith('/interaction/')) {
          const form = await (await other.get(location.href, { maxRedirects: 0 })).text();
          res = await other.post(location.href, {
            form: form.includes('Account') ? { account } : {},
            maxRedirects: 0,
          });
        } else {
          res = await other.get(location.href, { maxRedirects: 0 });
        }
      }
      throw new Error('the provider never sent the browser back');
    } finally {
      await other.dispose();
    }
  }

  async function signInFromProviderPage(account: string): Promise<void> {
    await page().getByLabel('Account').fill(account);
    await page().getByRole('button', { name: 'Sign in' }).click();
    await page().getByRole('button', { name: 'Allow' }).click();
  }
});
