import { Injectable } from '@nestjs/common';
import type { Organization } from '../tenants/organization.entity.js';
import { effectiveMonthlyCallLimit } from '../tenants/plans.js';
import type { QuotaState } from '../tenants/quota-state.js';
import { billingPeriodFor } from './billing-period.js';
import { QuotaRepository } from './quota.repository.js';

/**
 * The monthly call quota, counted in PostgreSQL with one atomic upsert per request
 * (`quota.repository.ts`: `QuotaRepository.countCall` runs it alone, `ApiKeysRepository.findByHash`
 * with a known key's look-up).
 *
 * Why PostgreSQL and not Redis: the count must be exact under concurrency and across
 * replicas and must survive restarts of anything. A conditional `INSERT … ON CONFLICT DO
 * UPDATE … WHERE calls < limit` does all of that in one round trip (the row lock serializes
 * concurrent callers, so the N+1st of a limit of N is refused), and a refused call is not
 * counted. Redis would need PostgreSQL behind it anyway to survive a Redis restart, for a
 * saving of a fraction of a millisecond (see bench/auth-overhead).
 */
@Injectable()
export class MonthlyQuotaService {
  constructor(private readonly usage: QuotaRepository) {}

  /** Counts one call if the period still has room; refuses (and counts nothing) otherwise. */
  async consume(org: Organization, now = new Date()): Promise<QuotaState> {
    const limit = effectiveMonthlyCallLimit(org);
    const period = billingPeriodFor(org.subscriptionStartedAt, now);
    // Counted before the request's transaction, and kept whatever that does.
    const calls =
      limit > 0
        ? await this.usage.countCall({ organizationId: org.id, start: period.start }, limit)
        : null;
    return quotaState(limit, calls ?? limit, period.end, calls !== null);
  }

  /**
   * The state after a call was offered to the quota: `calls` is the period's count including
   * it when it was counted, null when it was refused (the statement that counts may also be
   * `ApiKeysService.authenticate`'s).
   */
  stateAfter(org: Organization, calls: number | null, now = new Date()): QuotaState {
    const limit = effectiveMonthlyCallLimit(org);
    const resetAt = billingPeriodFor(org.subscriptionStartedAt, now).end;
    return quotaState(limit, calls ?? limit, resetAt, calls !== null);
  }

  /** The period's state without counting anything (for responses refused before counting). */
  async peek(org: Organization, now = new Date()): Promise<QuotaState> {
    const [state] = await this.peekMany([org], now);
    return state;
  }

  /** `peek` for a page of organizations, in one query. */
  async peekMany(orgs: Organization[], now = new Date()): Promise<QuotaState[]> {
    if (orgs.length === 0) return [];
    const periods = orgs.map((org) => billingPeriodFor(org.subscriptionStartedAt, now));
    const calls = await this.usage.callsIn(
      orgs.map((org, i) => ({ organizationId: org.id, start: periods[i].start })),
    );
    return orgs.map((org, i) => {
      const limit = effectiveMonthlyCallLimit(org);
      const used = calls.get(org.id) ?? 0;
      return quotaState(limit, used, periods[i].end, used < limit);
    });
  }
}

function quotaState(limit: number, used: number, resetAt: Date, admitted: boolean): QuotaState {
  return { limit, used, remaining: Math.max(limit - used, 0), resetAt, admitted };
}
