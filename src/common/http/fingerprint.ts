import { createHash } from 'node:crypto';
import type { Request } from 'express';

/** A request's idempotency fingerprint: SHA-256 over method, path with query, and the raw body. */
export function fingerprintOf(req: Request, body: Buffer = Buffer.alloc(0)): string {
  return createHash('sha256')
    .update(`${req.method} ${req.originalUrl}\n`)
    .update(body)
    .digest('hex');
}
