import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes (CONTRACT §7). */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'X-Service-Signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Both signatures of a delivery over the exact body bytes:
 * - `X-Service-Signature: t=<unix>,v1=<hex>`: HMAC-SHA256 keyed with the whole secret string
 *   over `<t>.<body>` (the scheme Stripe's libraries verify);
 * - Standard Webhooks: HMAC-SHA256 keyed with the secret's decoded bytes over
 *   `<event id>.<t>.<body>`, as `v1,<base64>`.
 */
export function signDelivery(
  secret: string,
  eventId: string,
  body: string,
  timestamp: number,
): SignedHeaders {
  const t = String(timestamp);
  const stripeStyle = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const standard = createHmac('sha256', key).update(`${eventId}.${t}.${body}`).digest('base64');
  return {
    'X-Service-Signature': `t=${t},v1=${stripeStyle}`,
    'webhook-id': eventId,
    'webhook-timestamp': t,
    'webhook-signature': `v1,${standard}`,
  };
}
