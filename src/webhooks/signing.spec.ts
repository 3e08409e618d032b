import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signDelivery } from './signing.js';
import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule.js';

describe('webhook signatures', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ id: 'evt_1', type: 'build.created.v1', data: { name: 'naïve ✓' } });

  it('makes secrets of whsec_ and 32 random bytes', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs X-Service-Signature the way Stripe’s library verifies', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signDelivery(secret, 'evt_1', body, now);
    const stripe = new Stripe('sk_test_unused');
    const event = stripe.webhooks.constructEvent(body, headers['X-Service-Signature'], secret);
    expect(event.id).toBe('evt_1');
    expect(() =>
      stripe.webhooks.constructEvent(`${body} `, headers['X-Service-Signature'], secret),
    ).toThrow();
    expect(() =>
      stripe.webhooks.constructEvent(body, headers['X-Service-Signature'], generateWebhookSecret()),
    ).toThrow();
  });

  it('signs the Standard Webhooks headers the way the standardwebhooks library verifies', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signDelivery(secret, 'evt_1', body, now);
    const verified = new Webhook(secret).verify(body, headers as unknown as Record<string, string>);
    expect(verified).toMatchObject({ id: 'evt_1' });
    expect(() =>
      new Webhook(secret).verify(
        body.replace('1', '2'),
        headers as unknown as Record<string, string>,
      ),
    ).toThrow();
  });
});

describe('retry schedule', () => {
  it('waits base, 4×, 16× and 64× base, about 14 hours in all with the default', () => {
    const base = 600_000;
    const exact = () => 0.5;
    expect([2, 3, 4, 5].map((n) => retryDelayMs(n, base, exact))).toEqual([
      600_000, 2_400_000, 9_600_000, 38_400_000,
    ]);
    const hours =
      [2, 3, 4, 5].reduce((sum, n) => sum + retryDelayMs(n, base, exact), 0) / 3_600_000;
    expect(hours).toBeCloseTo(14.17, 1);
    expect(MAX_ATTEMPTS).toBe(5);
  });

  it('adds at most ±10 % jitter', () => {
    expect(retryDelayMs(2, 1000, () => 0)).toBe(900);
    expect(retryDelayMs(2, 1000, () => 0.999999)).toBe(1100);
  });
});
