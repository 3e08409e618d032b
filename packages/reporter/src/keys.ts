import { createHash } from 'node:crypto';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * An `Idempotency-Key` (CONTRACT §8) derived from what identifies the request: the same parts in
 * any shard or on any retry give the same key, so the service does the work once.
 */
export function idempotencyKey(purpose: string, ...parts: string[]): string {
  return `tm-report-${purpose}-${sha256([purpose, ...parts].join('\u0000'))}`;
}
