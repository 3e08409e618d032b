import { Injectable, Logger } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { isoOrNull } from '../common/serialization.js';
import { Transactions } from '../database/transactions.js';
import { Organization } from '../organizations/entities/organization.entity.js';
import { prepared } from '../database/preparing-client.js';
import { countCallSql } from '../limits/count-call.js';
import { PLAN_MONTHLY_CALL_LIMIT } from '../organizations/plans.js';
import { requireOrganization } from '../organizations/require-organization.js';
import { generateApiKey } from './api-key-format.js';
import { CreateApiKeyDto, ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.dto.js';
import { ApiKey } from './entities/api-key.entity.js';

/** `last_used_at` is written at most this often per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type AuthenticatedKey = ApiKey & { organization: Organization };

/** What this process learned of a key from an earlier call: facts that never change. */
export interface KnownKey {
  organizationId: string;
  subscriptionStartedAt: Date;
}

/** A call to count with the authentication, in the period of the key's known organization. */
export interface CountWith {
  known: KnownKey;
  periodStart: Date;
}

export interface Authentication {
  key: AuthenticatedKey | null;
  /**
   * With `CountWith`: the organization's calls this period after this one, or null when the
   * call was not counted (the limit is reached, or the key is not what was known of it).
   */
  calls: number | null;
}

/** Keys whose organization this process remembers (their hashes only); cleared when full. */
const KNOWN_KEYS_MAX = 10_000;

/** Each plan's monthly calls, for the statements below ($2). */
const PLAN_LIMITS = JSON.stringify(PLAN_MONTHLY_CALL_LIMIT);

/** The live key with hash $1, its organization and the organization's effective limit. */
const AUTHENTICATE = prepared(
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
 * The call of key `k` counted in the quota, in the period starting $4, if the key belongs to
 * organization $3 with subscription start $5 and its plan has calls to count.
 */
const COUNT_KNOWN_KEY_CALL = countCallSql({
  organizationId: 'k.organization_id',
  periodStart: '$4',
  limit: '(SELECT call_limit FROM k)',
  from: `k
      WHERE k.organization_id = $3 AND k.org_subscription_started_at = $5
        AND k.org_plan <> 'basic' AND k.call_limit > 0`,
});

/**
 * `AUTHENTICATE`, and the call counted as `MonthlyQuotaService.consume` counts it: one
 * statement, one round trip.
 */
const AUTHENTICATE_AND_COUNT = prepared(
  `WITH k AS (${AUTHENTICATE}),
   counted AS (
     ${COUNT_KNOWN_KEY_CALL})
   SELECT k.*, (SELECT calls FROM counted) AS calls FROM k`,
);

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

export function toApiKeyResponse(key: ApiKey): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    prefix: key.prefix,
    last_used_at: isoOrNull(key.lastUsedAt),
    created_at: key.createdAt.toISOString(),
  };
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /** When this process last wrote `last_used_at` per key, so bursts cost no extra writes. */
  private readonly touchedAt = new Map<string, number>();
  /** Key hash → its organization, learned from calls that authenticated. */
  private readonly known = new Map<string, KnownKey>();

  constructor(private readonly transactions: Transactions) {}

  /** Creates a key; the plaintext is in this response only and is never stored. */
  async create(organizationId: string, dto: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    await requireOrganization(this.transactions, organizationId);
    const { key, prefix, hash } = generateApiKey();
    const manager = this.transactions.manager;
    const saved = await manager.save(
      manager.create(ApiKey, {
        organizationId,
        name: dto.name,
        scopes: dto.scopes,
        prefix,
        keyHash: hash,
      }),
    );
    return { ...toApiKeyResponse(saved), key };
  }

  async list(organizationId: string, query: PaginationQuery): Promise<Page<ApiKeyResponse>> {
    await requireOrganization(this.transactions, organizationId);
    const [keys, total] = await this.transactions.manager.findAndCount(ApiKey, {
      where: { organizationId, deletedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: query.limit,
      skip: query.offset,
    });
    return toPage(keys.map(toApiKeyResponse), total, query);
  }

  /** Deletes a key; its very next request is refused on every replica (keys are not cached). */
  async delete(id: string): Promise<void> {
    const result = await this.transactions.manager.softDelete(ApiKey, {
      id,
      deletedAt: IsNull(),
    });
    if (!result.affected) throw ApiError.notFound('api_key');
  }

  /** What an earlier call taught this process about the key with this hash, if anything. */
  knownKey(hash: string): KnownKey | undefined {
    return this.known.get(hash);
  }

  /**
   * The live key with this hash, with its organization, or null: one indexed query on the hot
   * path of every request (keys are never cached, so a deleted key fails at once everywhere).
   * With `count`, the same statement also counts the call in the monthly quota, exactly as
   * `MonthlyQuotaService.consume` does, if the key still belongs to the known organization and
   * its plan has room; so a call costs one round trip instead of two.
   */
  async authenticate(hash: string, count?: CountWith): Promise<Authentication> {
    // Before the request's transaction: the call it counts stays counted whatever that does.
    const manager = this.transactions.outside;
    const rows: AuthenticatedKeyRow[] = count
      ? await manager.query(AUTHENTICATE_AND_COUNT, [
          hash,
          PLAN_LIMITS,
          count.known.organizationId,
          count.periodStart,
          count.known.subscriptionStartedAt,
        ])
      : await manager.query(AUTHENTICATE, [hash, PLAN_LIMITS]);
    if (rows.length !== 1) {
      this.known.delete(hash);
      return { key: null, calls: null };
    }
    const key = fromAuthenticatedRow(rows[0]);
    if (this.known.size >= KNOWN_KEYS_MAX) this.known.clear();
    this.known.set(hash, {
      organizationId: key.organizationId,
      subscriptionStartedAt: key.organization.subscriptionStartedAt,
    });
    return { key, calls: rows[0].calls ?? null };
  }

  /**
   * Records that a key was used, at most once a minute per key: skipped in this process
   * within the minute, and the conditional UPDATE makes it once a minute across replicas.
   * Not awaited by the request.
   */
  noteUse(key: ApiKey, now = Date.now()): void {
    const seen = Math.max(this.touchedAt.get(key.id) ?? 0, key.lastUsedAt?.getTime() ?? 0);
    if (now - seen < LAST_USED_RESOLUTION_MS) return;
    this.touchedAt.set(key.id, now);
    if (this.touchedAt.size > 10_000) this.touchedAt.clear();
    // Not awaited by the request, so never in its transaction.
    this.transactions.outside
      .getRepository(ApiKey)
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: () => 'now()' })
      .where('id = :id', { id: key.id })
      .andWhere(`(last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`)
      .execute()
      .catch((error: unknown) =>
        this.logger.warn(`Could not record last use of a key: ${String(error)}`),
      );
  }
}
