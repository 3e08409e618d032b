import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { Scope } from '../routes/scopes.js';
import { billingPeriodFor } from '../limits/billing-period.js';
import { type MinuteDecision, MinuteLimiter } from '../limits/minute-limiter.js';
import { MonthlyQuotaService } from '../limits/monthly-quota.service.js';
import type { QuotaState } from '../tenants/quota-state.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import { apiKeyFromAuthorization, hashApiKey } from './api-key-format.js';
import type { ApiPrincipal } from '../routes/api-principal.js';
import type { AuthenticatedKey } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { unauthorized } from './unauthorized.js';

/** A key that authenticated, with what the known-key shortcut already counted for it. */
interface Authenticated {
  key: AuthenticatedKey;
  /** The minute already counted for the key's organization, or null. */
  minute: MinuteDecision | null;
  /** The month already counted with the key's look-up (calls after this one), or undefined. */
  monthCalls: number | null | undefined;
}

/**
 * Admits a call of an API-key route in CONTRACT §3's order: authentication (401) → plan
 * (403) → rate limits (429) → scope (403). Every answer after authentication carries the
 * rate-limit headers.
 */
@Injectable()
export class AdmissionService {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly minuteLimiter: MinuteLimiter,
    private readonly quota: MonthlyQuotaService,
  ) {}

  async admit(req: Request, res: Response, scopes: Scope[]): Promise<ApiPrincipal> {
    const now = new Date();
    const { key, minute, monthCalls } = await this.authenticate(req, now);
    const org = key.organization;
    await this.requirePaidPlan(key, res, now, minute !== null);
    await this.countMinute(key, res, now, minute);
    const quota = await this.countMonth(key, res, now, monthCalls);
    this.apiKeys.noteUse(key);
    requireScope(key, scopes);
    return { apiKeyId: key.id, scopes: key.scopes, organization: org, quota };
  }

  /**
   * 401 unless the request carries a valid key. With the key's organization known from an
   * earlier call, the minute is counted first, then the key is authenticated and the call
   * counted monthly in one statement; the minute is taken back if the key is refused or now
   * belongs elsewhere. A key new to this process takes each step in turn.
   */
  private async authenticate(req: Request, now: Date): Promise<Authenticated> {
    const plaintext = apiKeyFromAuthorization(req.get('authorization'));
    if (plaintext === null) throw unauthorized();
    const hash = hashApiKey(plaintext);

    const known = this.apiKeys.knownKey(hash);
    const early = known ? await this.minuteLimiter.hit(known.organizationId, now.getTime()) : null;
    const countWith =
      known && early?.allowed
        ? { known, periodStart: billingPeriodFor(known.subscriptionStartedAt, now).start }
        : undefined;
    const { key, calls } = await this.apiKeys.authenticate(hash, countWith);
    const sameOrganization = key !== null && known?.organizationId === key.organizationId;
    if (known && !sameOrganization) this.minuteLimiter.refund(known.organizationId, now.getTime());
    if (!key) throw unauthorized();
    const countedWithKey =
      countWith !== undefined &&
      sameOrganization &&
      key.organization.subscriptionStartedAt.getTime() ===
        countWith.known.subscriptionStartedAt.getTime();
    return {
      key,
      minute: sameOrganization ? early : null,
      monthCalls: countedWithKey ? calls : undefined,
    };
  }

  /** 403 for an organization on the Basic plan; a minute counted early is taken back. */
  private async requirePaidPlan(
    key: AuthenticatedKey,
    res: Response,
    now: Date,
    minuteCounted: boolean,
  ): Promise<void> {
    const org = key.organization;
    if (org.plan !== 'basic') return;
    if (minuteCounted) this.minuteLimiter.refund(org.id, now.getTime());
    setRateLimitHeaders(res, await this.quota.peek(org, now));
    throw new ApiError(403, ErrorCode.PlanRequired, 'API access needs a Pro or Enterprise plan.', {
      plan: org.plan,
    });
  }

  /** 429 (with `Retry-After`) past the per-minute limit. */
  private async countMinute(
    key: AuthenticatedKey,
    res: Response,
    now: Date,
    counted: MinuteDecision | null,
  ): Promise<void> {
    const org = key.organization;
    // (A call counted now, after the key's look-up: `now` may be a minute behind by then.)
    const minute = counted ?? (await this.minuteLimiter.hit(org.id));
    if (minute.allowed) return;
    setRateLimitHeaders(res, await this.quota.peek(org, now));
    throw new ApiError(
      429,
      ErrorCode.RateLimitExceeded,
      `More than ${minute.limit} calls this minute; retry after ${minute.retryAfter} s.`,
      { limit: minute.limit, retry_after: minute.retryAfter, window: 'minute' },
      { 'Retry-After': String(minute.retryAfter) },
    );
  }

  /** Counts the call in the month (unless the key's look-up did); 429 past the quota. */
  private async countMonth(
    key: AuthenticatedKey,
    res: Response,
    now: Date,
    counted: number | null | undefined,
  ): Promise<QuotaState> {
    const org = key.organization;
    const quota =
      counted !== undefined
        ? this.quota.stateAfter(org, counted, now)
        : await this.quota.consume(org, now);
    setRateLimitHeaders(res, quota);
    if (quota.admitted) return quota;
    throw new ApiError(
      429,
      ErrorCode.RateLimitExceeded,
      `The monthly limit of ${quota.limit} calls is used up until ${quota.resetAt.toISOString()}.`,
      { limit: quota.limit, reset_at: quota.resetAt.toISOString(), window: 'month' },
    );
  }
}

/** 403 when the key holds none of the route's scopes (an empty list: any key). */
function requireScope(key: AuthenticatedKey, scopes: Scope[]): void {
  if (scopes.length === 0 || scopes.some((scope) => key.scopes.includes(scope))) return;
  throw new ApiError(
    403,
    ErrorCode.InsufficientScope,
    `This key lacks the scope this endpoint needs: ${scopes.join(' or ')}.`,
    { required_scopes: scopes },
  );
}
