/**
 * One call to offer to the monthly quota, as SQL expressions of the statement it goes into:
 * the organization, the start of its billing period and its call limit, and with `from`, the
 * FROM clause (with its WHERE) of the row the first two are read from; without it, they are
 * the statement's parameters.
 */
export interface CallToCount {
  organizationId: string;
  periodStart: string;
  limit: string;
  from?: string;
}

/**
 * The one statement that counts a call against the monthly quota, alone
 * (`QuotaRepository.countCall`) or as a common table expression of a bigger statement
 * (`ApiKeysRepository.authenticate`, which counts with the key's look-up in one round trip). It
 * counts the call if fewer than `limit` were counted in the period and returns the period's
 * count with it (`calls`); a refused call returns no row and is not counted. The upsert's row
 * lock keeps the count exact across replicas (`MonthlyQuotaService` says why PostgreSQL).
 */
export function countCallSql(call: CallToCount): string {
  const row =
    call.from === undefined
      ? `VALUES (${call.organizationId}, ${call.periodStart}, 1)`
      : `SELECT ${call.organizationId}, ${call.periodStart}, 1 FROM ${call.from}`;
  return `INSERT INTO organization_usage AS u (organization_id, period_start, calls)
     ${row}
     ON CONFLICT (organization_id, period_start)
     DO UPDATE SET calls = u.calls + 1 WHERE u.calls < ${call.limit}
     RETURNING u.calls`;
}
