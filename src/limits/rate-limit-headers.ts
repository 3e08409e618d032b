import type { Response } from 'express';
import type { QuotaState } from '../tenants/quota-state.js';

/** The monthly quota as every authenticated response reports it (CONTRACT §4). */
export function setRateLimitHeaders(res: Response, quota: QuotaState): void {
  res.setHeader('X-RateLimit-Limit', String(quota.limit));
  res.setHeader('X-RateLimit-Remaining', String(quota.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.floor(quota.resetAt.getTime() / 1000)));
}
