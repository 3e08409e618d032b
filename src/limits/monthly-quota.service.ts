import { Injectable } from '@nestjs/common';
import { preparedSql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import type { Organization } from '../organizations/entities/organization.entity.js';
import { effectiveMonthlyCallLimit } from '../organizations/plans.js';
import { billingPeriodFor } from './billing-period.js';
import { countCallSql } from './count-call.js';

export interface QuotaState {
  limit: number;
  /** Calls counted in this period, including the current one when it was admitted. */
  used: number;
  remaining: number;
  resetAt: Date;
  admitted: boolean;
}

/** Counts a call of organization $1 in the period starting $2 if fewer than $3 were counted. */
const COUNT_CALL = preparedSql(
  'quota.countCall',
  countCallSql({ organizationId: '$1', periodStart: '$2', limit: '$3' }),
);

/**
 * The monthly call quota, counted in PostgreSQL with one atomic upsert per request
 * (`countCallSql`, which `ApiKeysService.authenticate` also runs with a known key's look-up).
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
  constructor(private readonly transactions: Transactions) {}

  /** Counts one call if the period still has room; refuses (and counts nothing) otherwise. */
  async consume(org: Organization, now = new Date()): Promise<QuotaState> {
    const limit = effectiveMonthlyCallLimit(org);
    const period = billingPeriodFor(org.subscriptionStartedAt, now);
    // Counted before the request's transaction, and kept whatever that does.
    const outside = this.transactions.outside;
    const rows: Array<{ calls: number }> =
      limit > 0 ? await outside.query(COUNT_CALL, [org.id, period.start, limit]) : [];
    const calls = rows.length === 1 ? rows[0].calls : null;
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
    const rows: Array<{ organization_id: string; calls: number }> =
      await this.transactions.manager.query(
        `SELECT u.organization_id, u.calls
         FROM organization_usage u
         JOIN unnest($1::uuid[], $2::timestamptz[]) AS p(organization_id, period_start)
           ON u.organization_id = p.organization_id AND u.period_start = p.period_start`,
        [orgs.map((org) => org.id), periods.map((period) => period.start)],
      );
    const calls = new Map(rows.map((row) => [row.organization_id, row.calls]));
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
