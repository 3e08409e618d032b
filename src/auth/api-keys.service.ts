import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { isoOrNull } from '../common/serialization.js';
import { Transactions } from '../database/transactions.js';
import { Organization } from '../organizations/entities/organization.entity.js';
import { requireOrganization } from '../organizations/require-organization.js';
import { generateApiKey, hashApiKey } from './api-key-format.js';
import { CreateApiKeyDto, ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.dto.js';
import { ApiKey } from './entities/api-key.entity.js';

/** `last_used_at` is written at most this often per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type AuthenticatedKey = ApiKey & { organization: Organization };

interface AuthenticatedKeyRow {
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

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly transactions: Transactions,
  ) {}

  /** Creates a key; the plaintext is in this response only and is never stored. */
  async create(organizationId: string, dto: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    await requireOrganization(this.transactions.manager, organizationId);
    const { key, prefix, hash } = generateApiKey();
    const saved = await this.keys.save(
      this.keys.create({
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
    await requireOrganization(this.transactions.manager, organizationId);
    const [keys, total] = await this.keys.findAndCount({
      where: { organizationId, deletedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: query.limit,
      skip: query.offset,
    });
    return toPage(keys.map(toApiKeyResponse), total, query);
  }

  /** Deletes a key; its very next request is refused on every replica (keys are not cached). */
  async delete(id: string): Promise<void> {
    const result = await this.keys.softDelete({ id, deletedAt: IsNull() });
    if (!result.affected) throw ApiError.notFound('api_key');
  }

  /**
   * The live key with this plaintext, with its organization, or null. One indexed query on
   * the hot path of every request, in plain SQL to skip the query builder's overhead.
   */
  async authenticate(key: string): Promise<AuthenticatedKey | null> {
    const rows: AuthenticatedKeyRow[] = await this.keys.query(
      `SELECT k.id, k.organization_id, k.name, k.scopes, k.prefix, k.last_used_at, k.created_at,
              o.name AS org_name, o.plan AS org_plan, o.subscription_started_at AS org_subscription_started_at,
              o.monthly_call_limit AS org_monthly_call_limit, o.created_at AS org_created_at,
              o.updated_at AS org_updated_at
         FROM api_key k
         JOIN organization o ON o.id = k.organization_id
        WHERE k.key_hash = $1 AND k.deleted_at IS NULL`,
      [hashApiKey(key)],
    );
    return rows.length === 1 ? fromAuthenticatedRow(rows[0]) : null;
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
    this.keys
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
