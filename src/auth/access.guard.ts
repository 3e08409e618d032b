import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { Scope } from '../common/scopes.js';
import { Settings } from '../config/settings.js';
import { billingPeriodFor } from '../limits/billing-period.js';
import { MinuteLimiter } from '../limits/minute-limiter.js';
import { MonthlyQuotaService } from '../limits/monthly-quota.service.js';
import { setRateLimitHeaders } from '../limits/rate-limit-headers.js';
import { ACCESS_METADATA, type AccessRule } from './access.decorators.js';
import { apiKeyFromAuthorization, hashApiKey, secretsEqual } from './api-key-format.js';
import type { ApiPrincipal } from './api-principal.js';
import { ApiKeysService } from './api-keys.service.js';
import { unauthorized } from './unauthorized.js';

/**
 * The global guard: every route declares its access rule (`@RequireScopes`, `@AnyApiKey`,
 * `@InternalApi`, `@Public`) and a route that declares nothing is refused. API-key routes
 * run CONTRACT §3's order: authentication (401) → plan (403) → rate limits (429) → scope
 * (403); validation (400) and the handler come after the guard.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly settings: Settings,
    private readonly apiKeys: ApiKeysService,
    private readonly minuteLimiter: MinuteLimiter,
    private readonly quota: MonthlyQuotaService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) {
      throw new Error(
        `${context.getClass().name}.${context.getHandler().name} declares no access rule`,
      );
    }
    if (rule.kind === 'public') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (rule.kind === 'internal') {
      this.checkOperatorToken(req);
      return true;
    }
    req.principal = await this.admit(
      req,
      context.switchToHttp().getResponse<Response>(),
      rule.scopes,
    );
    return true;
  }

  private checkOperatorToken(req: Request): void {
    const token = this.settings.adminToken;
    // Without an operator token the internal API does not exist.
    if (token === null) throw ApiError.notFound();
    const header = req.get('authorization') ?? '';
    if (!header.startsWith('Bearer ') || !secretsEqual(header.slice('Bearer '.length), token)) {
      throw unauthorized();
    }
  }

  private async admit(req: Request, res: Response, scopes: Scope[]): Promise<ApiPrincipal> {
    const plaintext = apiKeyFromAuthorization(req.get('authorization'));
    if (plaintext === null) throw unauthorized();
    const hash = hashApiKey(plaintext);
    const now = new Date();

    // With the key's organization known from an earlier call, the minute is counted first,
    // then the key is authenticated and the call counted monthly in one statement; the minute
    // is taken back if the key is refused. A key new to this process takes each step in turn.
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
    const org = key.organization;

    if (org.plan === 'basic') {
      if (sameOrganization) this.minuteLimiter.refund(org.id, now.getTime());
      setRateLimitHeaders(res, await this.quota.peek(org, now));
      throw new ApiError(
        403,
        ErrorCode.PlanRequired,
        'API access needs a Pro or Enterprise plan.',
        { plan: org.plan },
      );
    }

    // (A call counted now, after the key's look-up: `now` may be a minute behind by then.)
    const minute = sameOrganization && early ? early : await this.minuteLimiter.hit(org.id);
    if (!minute.allowed) {
      setRateLimitHeaders(res, await this.quota.peek(org, now));
      throw new ApiError(
        429,
        ErrorCode.RateLimitExceeded,
        `More than ${minute.limit} calls this minute; retry after ${minute.retryAfter} s.`,
        { limit: minute.limit, retry_after: minute.retryAfter, window: 'minute' },
        { 'Retry-After': String(minute.retryAfter) },
      );
    }

    const countedWithKey =
      countWith !== undefined &&
      sameOrganization &&
      org.subscriptionStartedAt.getTime() === countWith.known.subscriptionStartedAt.getTime();
    const quota = countedWithKey
      ? this.quota.stateAfter(org, calls, now)
      : await this.quota.consume(org, now);
    setRateLimitHeaders(res, quota);
    if (!quota.admitted) {
      throw new ApiError(
        429,
        ErrorCode.RateLimitExceeded,
        `The monthly limit of ${quota.limit} calls is used up until ${quota.resetAt.toISOString()}.`,
        { limit: quota.limit, reset_at: quota.resetAt.toISOString(), window: 'month' },
      );
    }
    this.apiKeys.noteUse(key);

    if (scopes.length > 0 && !scopes.some((scope) => key.scopes.includes(scope))) {
      throw new ApiError(
        403,
        ErrorCode.InsufficientScope,
        `This key lacks the scope this endpoint needs: ${scopes.join(' or ')}.`,
        { required_scopes: scopes },
      );
    }
    return { apiKeyId: key.id, scopes: key.scopes, organization: org, quota };
  }
}
