import { Injectable } from '@nestjs/common';
import { preparedSql, sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';

/*
 * Counting a call against the monthly quota is one statement: it counts the call if fewer than
 * the limit were counted in the period and returns the period's count with it (`calls`); a
 * refused call returns no row and is not counted. The upsert's row lock keeps the count exact
 * across replicas (`MonthlyQuotaService` says why PostgreSQL). It runs in two forms, which must
 * count alike: alone (`COUNT_CALL`), and as a common table expression of the key's look-up
 * (`COUNT_CALL_OF_FOUND_KEY`), so that authenticating and counting take one round trip.
 */

/** Counts a call of organization $1 in the period starting $2 if fewer than $3 were counted. */
const COUNT_CALL = preparedSql(
  'quota.countCall',
  `INSERT INTO organization_usage AS u (organization_id, period_start, calls)
     VALUES ($1, $2, 1)
     ON CONFLICT (organization_id, period_start)
     DO UPDATE SET calls = u.calls + 1 WHERE u.calls < $3
     RETURNING u.calls`,
);

/**
 * `COUNT_CALL` as a common table expression of `ApiKeysRepository`'s look-up, over the key `k`
 * it found (its `organization_id`, `org_plan`, `org_subscription_started_at`, `call_limit`):
 * the call is counted in the period starting $4 if the key belongs to organization $3 with
 * subscription start $5 and its plan has calls to count. Not a statement of its own.
 */
export const COUNT_CALL_OF_FOUND_KEY = `INSERT INTO organization_usage AS u (organization_id, period_start, calls)
     SELECT k.organization_id, $4, 1 FROM k
      WHERE k.organization_id = $3 AND k.org_subscription_started_at = $5
        AND k.org_plan <> 'basic' AND k.call_limit > 0
     ON CONFLICT (organization_id, period_start)
     DO UPDATE SET calls = u.calls + 1 WHERE u.calls < (SELECT call_limit FROM k)
     RETURNING u.calls`;

/** The calls counted for organizations $1, each in the period starting at its $2. */
const CALLS_IN_PERIODS = sql(
  'quota.callsInPeriods',
  `SELECT u.organization_id, u.calls
         FROM organization_usage u
         JOIN unnest($1::uuid[], $2::timestamptz[]) AS p(organization_id, period_start)
           ON u.organization_id = p.organization_id AND u.period_start = p.period_start`,
);

/** The period a count is kept for: whose calls, and from when. */
export interface QuotaPeriod {
  organizationId: string;
  start: Date;
}

/** The `organization_usage` table: the monthly quota's counts. */
@Injectable()
export class QuotaRepository {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Counts one call if fewer than `limit` were counted in the period and returns the period's
   * count with it, or null (nothing counted) when the limit is reached. Commits on its own,
   * before the request's transaction, and is kept whatever that does.
   */
  async countCall(period: QuotaPeriod, limit: number): Promise<number | null> {
    const rows: Array<{ calls: number }> = await this.transactions.outside.query(COUNT_CALL, [
      period.organizationId,
      period.start,
      limit,
    ]);
    return rows.length === 1 ? rows[0].calls : null;
  }

  /** The calls counted in each period, by organization id (absent: none counted). */
  async callsIn(periods: QuotaPeriod[]): Promise<Map<string, number>> {
    const rows: Array<{ organization_id: string; calls: number }> =
      await this.transactions.manager.query(CALLS_IN_PERIODS, [
        periods.map((period) => period.organizationId),
        periods.map((period) => period.start),
      ]);
    return new Map(rows.map((row) => [row.organization_id, row.calls]));
  }
}
