import { Injectable } from '@nestjs/common';
import { preparedSql, sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { countCallSql } from './count-call.js';

/** Counts a call of organization $1 in the period starting $2 if fewer than $3 were counted. */
const COUNT_CALL = preparedSql(
  'quota.countCall',
  countCallSql({ organizationId: '$1', periodStart: '$2', limit: '$3' }),
);

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
