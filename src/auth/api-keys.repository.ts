import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import type { PaginationQuery } from '../common/pagination/pagination.js';
import { preparedSql, sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';
import { COUNT_CALL_OF_FOUND_KEY } from '../limits/quota.repository.js';
import { Organization } from '../tenants/organization.entity.js';
import { PLAN_MONTHLY_CALL_LIMIT } from '../tenants/plans.js';
import { ApiKey } from './entities/api-key.entity.js';

export type AuthenticatedKey = ApiKey & { organization: Organization };

/** Each plan's monthly calls, for the statements below ($2). */
const PLAN_LIMITS = JSON.stringify(PLAN_MONTHLY_CALL_LIMIT);

/** The live key with hash $1, its organization and the organization's effective limit. */
const AUTHENTICATE = preparedSql(
  'apiKeys.authenticate',
  `SELECT k.id, k.organization_id, k.name, k.scopes, k.prefix, k.last_used_at, k.created_at,
          o.name AS org_name, o.plan AS org_plan, o.subscription_started_at AS org_subscription_started_at,
          o.monthly_call_limit AS org_monthly_call_limit, o.created_at AS org_created_at,
          o.updated_at AS org_updated_at,
          coalesce(o.monthly_call_limit, ($2::jsonb ->> o.plan::text)::int) AS call_limit
     FROM api_key k
     JOIN organization o ON o.id = k.organization_id
    WHERE k.key_hash = $1 AND k.deleted_at IS NULL`,
);

/**
 * `AUTHENTICATE`, and the call counted as `QuotaRepository.countCall` counts it: one
 * statement, one round trip.
 */
const AUTHENTICATE_AND_COUNT = preparedSql(
  'apiKeys.authenticateAndCount',
  `WITH k AS (${AUTHENTICATE}),
   counted AS (
     ${COUNT_CALL_OF_FOUND_KEY})
   SELECT k.*, (SELECT calls FROM counted) AS calls FROM k`,
);

/** Sets `last_used_at` of key $1 unless it was set within the minute. */
const TOUCH = sql(
  'apiKeys.touch',
  `UPDATE api_key SET last_used_at = now()
    WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
);

/** The call to count with an authentication: the organization it expects, and the period. */
export interface CallToCountWithKey {
  organizationId: string;
  subscriptionStartedAt: Date;
  periodStart: Date;
}

/** A live key found by its hash, and the period's count when the call was counted with it. */
export interface FoundKey {
  key: AuthenticatedKey;
  calls: number | null;
}

/** The `api_key` table. Hashes are only ever compared here, never read back. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly transactions: Transactions) {}

  insert(
    key: Pick<ApiKey, 'organizationId' | 'name' | 'scopes' | 'prefix' | 'keyHash'>,
  ): Promise<ApiKey> {
    const manager = this.transactions.manager;
    return manager.save(manager.create(ApiKey, key));
  }

  /** A page of the organization's live keys, newest first, and how many there are. */
  listLive(organizationId: string, page: PaginationQuery): Promise<[ApiKey[], number]> {
    return this.transactions.manager.findAndCount(ApiKey, {
      where: { organizationId, deletedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
  }

  /** Soft-deletes a live key; false when there was none with this id. */
  async softDelete(id: string): Promise<boolean> {
    const result = await this.transactions.manager.softDelete(ApiKey, { id, deletedAt: IsNull() });
    return Boolean(result.affected);
  }

  /**
   * The live key with this hash and its organization, counting the call `count` in the same
   * statement when the key still belongs to the organization expected and its plan has room.
   * Runs before the request's transaction: the call it counts stays counted whatever that does.
   */
  async findByHash(hash: string, count?: CallToCountWithKey): Promise<FoundKey | null> {
    const manager = this.transactions.outside;
    const rows: AuthenticatedKeyRow[] = count
      ? await manager.query(AUTHENTICATE_AND_COUNT, [
          hash,
          PLAN_LIMITS,
          count.organizationId,
          count.periodStart,
          count.subscriptionStartedAt,
        ])
      : await manager.query(AUTHENTICATE, [hash, PLAN_LIMITS]);
    if (rows.length !== 1) return null;
    return { key: fromAuthenticatedRow(rows[0]), calls: rows[0].calls ?? null };
  }

  /** Records a use of the key, at most once a minute; on its own, never in a transaction. */
  async touch(id: string): Promise<void> {
    await this.transactions.outside.query(TOUCH, [id]);
  }
}

interface AuthenticatedKeyRow {
  /** Only when the call was counted in the same statement. */
  calls?: number | null;
  id: string;
  organization_id: string;
  name: string;
  scopes: string[];
  prefix: string;
  last_used_at: Date | null;
  created_at: Date;
  org_name: string;
  org_plan: Organization['plan'];
  org_subscription_started_at: Date;
  org_monthly_call_limit: number | null;
  org_created_at: Date;
  org_updated_at: Date;
}

function fromAuthenticatedRow(row: AuthenticatedKeyRow): AuthenticatedKey {
  const organization = Object.assign(new Organization(), {
    id: row.organization_id,
    name: row.org_name,
    plan: row.org_plan,
    subscriptionStartedAt: row.org_subscription_started_at,
    monthlyCallLimit: row.org_monthly_call_limit,
    createdAt: row.org_created_at,
    updatedAt: row.org_updated_at,
  });
  return Object.assign(new ApiKey(), {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    keyHash: '',
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
    deletedAt: null,
    organization,
  });
}
