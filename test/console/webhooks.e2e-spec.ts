import { readFileSync } from 'node:fs';
import type { APIRequestContext } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { eventually, Receiver, type Received } from '../support/receiver.js';
import {
  SERVICE_DOWN,
  expectAccessible,
  screenshot,
  textWhen,
  whereKept,
  type Browser,
} from './browser.js';
import { STACK_START_MS, startConsoleStack, type ConsoleStack } from './stack.js';
import { OPERATOR, seedApiKey, seedOrganization, signIn } from './seed.js';

const HOOKS_ROUTE = '**/internal/v1/organizations/*/webhooks?**';
/** What the receiver answers first: markup, which the page must show as text. */
const NOT_READY = '<b id="injected">not ready</b><img src="x" onerror="window.__injected = 1">';

interface Delivery {
  id: string;
  event_id: string;
  status: string;
  attempts: number;
}

/**
 * An organization's webhooks in a real browser against the built service running the delivery
 * worker too (`APP_ROLE=all`): a subscription created from the keyboard with its secret shown
 * once, an event caused through the public API failing at a loopback receiver (500), its
 * attempt in the log, and a redelivery from the page that the receiver accepts after checking
 * the signature with the secret the page showed. Retries are ten minutes apart (the service's
 * default schedule), so the failed delivery keeps its one attempt while the test runs.
 */
describe('web console: webhooks of an organization', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let outside: APIRequestContext;
  let receiver: Receiver;
  /** A receiver that answers 410 Gone: its subscription is switched off. */
  let gone: Receiver;
  let receiverUrl: string;
  let goneUrl: string;
  let org: { id: string; name: string };
  /** A public-API key of the organization, for causing events. */
  let apiKey: string;
  /** The secret the page showed once. */
  let shownSecret = '';
  let webhookId: string;
  /** Whether each request's signature held, checked with the secret shown once. */
  const verified: boolean[] = [];

  const verifies = (request: Received): boolean => {
    try {
      new Webhook(shownSecret).verify(request.body, {
        'webhook-id': request.headers['webhook-id'] as string,
        'webhook-timestamp': request.headers['webhook-timestamp'] as string,
        'webhook-signature': request.headers['webhook-signature'] as string,
      });
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    receiver = new Receiver();
    receiverUrl = await receiver.start();
    // The first request fails with a 500; later ones succeed if they are signed with the
    // secret the page showed (a 401 otherwise).
    receiver.respond = (request, index) => {
      const signed = verifies(request);
      verified.push(signed);
      if (index === 0) return { status: 500, body: NOT_READY };
      return signed ? { status: 200, body: 'thanks' } : { status: 401, body: 'bad signature' };
    };
    gone = new Receiver();
    gone.respond = () => ({ status: 410, body: 'gone for good' });
    goneUrl = await gone.start();

    stack = await startConsoleStack('console_webhooks', {
      APP_ROLE: 'all',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_TIMEOUT_MS: '3000',
    });
    ({ browser, outside } = stack);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: stack.base,
    });
    org = await seedOrganization(outside, { name: 'Hooks Ltd', plan: 'enterprise' });
    apiKey = await seedApiKey(outside, org.id, ['builds:create', 'webhooks:manage']);
  }, STACK_START_MS);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await gone?.stop();
  });

  const page = () => browser.page;
  const hooksUrl = () => new RegExp(`/console/organizations/${org.id}/webhooks$`);

  /** A build through the public API: a `build.created.v1` event. */
  async function causeEvent(name = 'build'): Promise<void> {
    const res = await outside.post('/api/v1/builds', {
      headers: { Authorization: `Bearer ${apiKey}` },
      data: { name },
    });
    expect(res.status()).toBe(202);
  }

  /** The subscription's deliveries as the internal API lists them, once `done` holds. */
  const deliveriesWhen = (done: (deliveries: Delivery[]) => boolean) =>
    eventually(async () => {
      const res = await outside.get(`/internal/v1/webhooks/${webhookId}/deliveries?limit=100`, {
        headers: OPERATOR,
      });
      return ((await res.json()) as { data: Delivery[] }).data;
    }, done);

  const kept = () => whereKept(page(), shownSecret);

  it('goes from the organizations to one’s webhooks, none yet, offering the API’s events', async () => {
    await page().goto('/console/organizations');
    await signIn(page());
    await page().waitForURL(/\/console\/organizations$/);

    await page().getByRole('link', { name: 'Webhooks of Hooks Ltd' }).click();
    await page().waitForURL(hooksUrl());
    // The organization's own page links there too.
    await page().goto(`/console/organizations/${org.id}`);
    await page().getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page().waitForURL(hooksUrl());
    expect(await textWhen(page().getByRole('heading', { level: 1 }), 'Hooks Ltd')).toBe(
      'Webhooks of Hooks Ltd',
    );
    await page().getByText('This organization has no webhook subscriptions yet.').waitFor();
    // The events offered are the internal API document's, all of them, in its order.
    const document = JSON.parse(readFileSync('internal-openapi.json', 'utf8'));
    const declared: string[] =
      document.components.schemas.CreateWebhookFieldsDto.properties.events.items.enum;
    expect(declared).toEqual(expect.arrayContaining(['*', 'build.created.v1']));
    const offered = await page()
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('value')));
    expect(offered).toEqual(declared);
    await expectAccessible(page());
    await screenshot(page(), 'webhooks-empty');
  }, 30_000);

  it('shows the service’s refusal of an endpoint on a private address', async () => {
    await page().getByLabel('Endpoint URL').fill('http://10.1.2.3/hook');
    await page().getByRole('checkbox', { name: 'build.created.v1' }).check();
    await page().getByLabel('Endpoint URL').press('Enter');
    expect(await textWhen(page().getByRole('alert'), 'url')).toMatch(/url/);
    expect(await page().getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page().getByRole('dialog').count()).toBe(0);
    await page().getByText('This organization has no webhook subscriptions yet.').waitFor();
    await page().getByRole('checkbox', { name: 'build.created.v1' }).uncheck();
  }, 30_000);

  it('creates a subscription from the keyboard and shows its signing secret once, with a copy button', async () => {
    await page().getByLabel('Endpoint URL').fill(receiverUrl);
    await page().getByLabel('Description (optional)').fill('CI receiver');
    await page().getByRole('checkbox', { name: 'build.created.v1' }).focus();
    await page().keyboard.press('Space');
    await page().getByLabel('Endpoint URL').focus();
    await page().keyboard.press('Enter');

    const dialog = page().getByRole('dialog', { name: 'Subscription created' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('it will not be shown again');
    shownSecret = (await dialog.getByLabel('The signing secret').textContent()) ?? '';
    expect(shownSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The copy button has the focus: Enter copies the secret.
    await page().keyboard.press('Enter');
    expect(await textWhen(dialog.getByRole('status'), 'Copied')).toBe('Copied to the clipboard.');
    expect(await page().evaluate('navigator.clipboard.readText()')).toBe(shownSecret);
    await expectAccessible(page());
    await screenshot(page(), 'webhook-created', { fullPage: false });
    expect(await kept()).toMatchObject({ page: true, storage: false, url: false });
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const row = page().getByRole('row', { name: new RegExp(receiverUrl.replace(/[/.]/g, '\\$&')) });
    expect(await textWhen(row, 'Active')).toContain('build.created.v1');
    expect(await row.textContent()).toContain('CI receiver');
    expect(await kept()).toEqual({ url: false, page: false, storage: false });
    const listed = await outside.get(`/internal/v1/organizations/${org.id}/webhooks`, {
      headers: OPERATOR,
    });
    webhookId = ((await listed.json()) as { data: Array<{ id: string }> }).data[0].id;
    await expectAccessible(page());
    await screenshot(page(), 'webhooks');
  }, 30_000);

  it('shows a failed attempt with its HTTP status and the response excerpt, as text', async () => {
    await page()
      .getByRole('link', { name: `Deliveries to ${receiverUrl}` })
      .click();
    await page().waitForURL(new RegExp(`/console/webhooks/${webhookId}$`));
    await page().getByText('Nothing has been delivered to this endpoint yet').waitFor();
    await causeEvent('first');
    const [failed] = await deliveriesWhen((ds) => ds.length === 1 && ds[0].attempts === 1);
    expect(failed.status).toBe('pending');
    // Its next attempt is ten minutes away, so the page does not poll: Refresh reads the log.
    await page().getByRole('button', { name: 'Refresh' }).click();
    const row = page().locator('table.deliveries > tbody > tr').first();
    expect(await textWhen(row, 'Pending')).toMatch(/build\.created\.v1\s*Pending\s*1/);
    // Opened from the keyboard; the opened delivery is in the URL.
    await row.getByRole('button', { name: /^Attempts of build\.created\.v1/ }).focus();
    await page().keyboard.press('Enter');
    await page().waitForURL(new RegExp(`/console/webhooks/${webhookId}\\?delivery=${failed.id}$`));
    const attempts = page().getByRole('table', { name: 'Attempts of this delivery' });
    expect(await textWhen(attempts, 'HTTP 500')).toContain('HTTP 500');
    const excerpt = attempts.locator('pre.excerpt');
    expect(await excerpt.textContent()).toBe(NOT_READY);
    // The receiver's markup stayed text: no element of it, no script of it ran.
    expect(await page().locator('#injected').count()).toBe(0);
    expect(await page().evaluate('window.__injected')).toBeUndefined();
    expect(await attempts.textContent()).toMatch(/\d+ ms/);

    // The URL can be shared: loaded afresh, it opens the same delivery.
    await page().reload();
    expect(
      await textWhen(page().getByRole('table', { name: 'Attempts of this delivery' }), 'HTTP 500'),
    ).toContain('HTTP 500');
    expect(
      await page()
        .getByRole('button', { name: /^Attempts of/ })
        .getAttribute('aria-expanded'),
    ).toBe('true');
    await expectAccessible(page());
    await screenshot(page(), 'webhook-delivery-failed');
  }, 30_000);

  it('redelivers from the page: the new delivery succeeds, signed with the secret shown once', async () => {
    const [failed] = await deliveriesWhen((ds) => ds.length === 1);
    await page()
      .getByRole('button', { name: /^Redeliver build\.created\.v1/ })
      .click();
    expect(await textWhen(page().getByRole('status'), 'queued')).toContain(
      'Redelivery of build.created.v1 queued',
    );
    const [redelivery] = await deliveriesWhen((ds) => ds.length === 2);
    expect(redelivery.event_id).toBe(failed.event_id);
    // The new delivery is on top, opened (its id in the URL), and turns to succeeded by itself.
    await page().waitForURL(new RegExp(`\\?delivery=${redelivery.id}$`));
    const rows = page().locator('table.deliveries > tbody > tr:not(.attempts-row)');
    expect(await textWhen(rows.first(), 'Succeeded', 15_000)).toMatch(
      /build\.created\.v1\s*Succeeded\s*1/,
    );
    expect(
      await textWhen(page().getByRole('table', { name: 'Attempts of this delivery' }), 'HTTP 200'),
    ).toMatch(/HTTP 200.*thanks/);
    // The delivery it repeats, still pending, ends its retries (CONTRACT §7): failed, one attempt.
    expect(await rows.nth(1).textContent()).toMatch(/Failed\s*1/);

    // The receiver checked the redelivery's signature with the secret the page showed.
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].json.id).toBe(failed.event_id);
    expect(verified).toEqual([true, true]);
    await expectAccessible(page());
    await screenshot(page(), 'webhook-redelivered');
  }, 30_000);

  it('pages through the delivery log, newest first, in URLs that can be shared', async () => {
    for (let n = 1; n <= 24; n++) await causeEvent(`build ${n}`);
    await deliveriesWhen((ds) => ds.length === 26);
    await page().goto(`/console/webhooks/${webhookId}`);
    const pages = page().getByRole('navigation', { name: 'Pages' });
    expect(await textWhen(pages, '1–25 of 26')).toBe('1–25 of 26Next');
    await page().getByRole('link', { name: 'Next' }).click();
    await page().waitForURL(new RegExp(`/webhooks/${webhookId}\\?offset=25$`));
    expect(await textWhen(pages, '26–26 of 26')).toBe('26–26 of 26Previous');
    const rows = page().locator('table.deliveries > tbody > tr');
    expect(await rows.count()).toBe(1);
    // The oldest: the delivery that failed, whose retries the redelivery ended.
    expect(await rows.first().textContent()).toMatch(/Failed\s*1/);
  }, 30_000);

  it('shows a delivery log that cannot be read, and tries again', async () => {
    const route = `**/internal/v1/webhooks/${webhookId}/deliveries?**`;
    await page().route(route, (r) =>
      r.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'service_unavailable', message: 'Busy.', details: {} }),
      }),
    );
    try {
      await page().goto(`/console/webhooks/${webhookId}?offset=25`);
      expect(await textWhen(page().getByRole('alert'), 'Busy.', 15_000)).toContain(
        'Could not load this page (503): Busy.',
      );
      await expectAccessible(page());
      await screenshot(page(), 'webhook-deliveries-error');
    } finally {
      await page().unroute(route);
    }
    await page().getByRole('button', { name: 'Try again' }).click();
    expect(await textWhen(page().getByRole('navigation', { name: 'Pages' }), '26–26')).toBe(
      '26–26 of 26Previous',
    );
  }, 30_000);

  it('shows a subscription switched off by a 410 and switches it back on', async () => {
    const made = await outside.post(`/internal/v1/organizations/${org.id}/webhooks`, {
      headers: OPERATOR,
      data: { url: goneUrl, events: ['*'] },
    });
    expect(made.status()).toBe(201);
    await causeEvent('for the gone receiver');
    await eventually(
      async () => gone.received.length,
      (n) => n === 1,
    );
    await page().goto(`/console/organizations/${org.id}/webhooks`);
    const enable = page().getByRole('button', { name: /^Re-enable / });
    await enable.waitFor();
    const row = page().getByRole('row', { name: /every event/ });
    expect(await textWhen(row, 'Deactivated')).toContain('Deactivated');
    await expectAccessible(page());
    await screenshot(page(), 'webhooks-deactivated');
    await enable.click();
    expect(await textWhen(row, 'Active')).toContain('Active');
    expect(
      await page()
        .getByRole('button', { name: /^Re-enable / })
        .count(),
    ).toBe(0);
  }, 30_000);

  it('deletes a subscription only once confirmed; its log is gone', async () => {
    const deleteButton = page().getByRole('button', { name: `Delete ${receiverUrl}` });
    await deleteButton.click();
    let dialog = page().getByRole('dialog', { name: 'Delete this subscription?' });
    await dialog.waitFor();
    // Cancel has the focus: Enter keeps the subscription.
    await page().keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await deleteButton.count()).toBe(1);

    await deleteButton.click();
    dialog = page().getByRole('dialog', { name: 'Delete this subscription?' });
    await dialog.waitFor();
    await expectAccessible(page());
    await screenshot(page(), 'webhook-delete', { fullPage: false });
    await dialog.getByRole('button', { name: 'Delete subscription' }).click();
    await dialog.waitFor({ state: 'detached' });
    await deleteButton.waitFor({ state: 'detached' });

    await page().goto(`/console/webhooks/${webhookId}`);
    await page().getByText('There is no such webhook subscription.').waitFor();
  }, 30_000);

  it('shows its loading and error states, and tries again', async () => {
    let answer: 'slow' | 'fail' = 'slow';
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page().route(HOOKS_ROUTE, async (route) => {
      if (answer === 'slow') {
        await released;
        return route.continue();
      }
      return route.fulfill(SERVICE_DOWN);
    });
    try {
      await page().goto(`/console/organizations/${org.id}/webhooks?offset=25`);
      expect(await textWhen(page().getByRole('status'), 'Loading webhook subscriptions…')).toBe(
        'Loading webhook subscriptions…',
      );
      await screenshot(page(), 'webhooks-loading');
      answer = 'fail';
      release();
      await page().goto(`/console/organizations/${org.id}/webhooks?offset=50`);
      expect(await textWhen(page().getByRole('alert'), 'Down for a moment.', 15_000)).toContain(
        'Could not load this page (503): Down for a moment.',
      );
      await expectAccessible(page());
      await screenshot(page(), 'webhooks-error');
    } finally {
      await page().unroute(HOOKS_ROUTE);
    }
    await page().getByRole('button', { name: 'Try again' }).click();
    await page().getByText('This page is past the last subscription.').waitFor();
  }, 30_000);
});
