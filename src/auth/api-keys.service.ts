import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { type Page, PaginationQuery, toPage } from '../common/pagination/pagination.js';
import { isoOrNull } from '../common/serialization.js';
import { Transactions } from '../database/transactions.js';
import { requireOrganization } from '../tenants/require-organization.js';
import { generateApiKey } from './api-key-format.js';
import { CreateApiKeyDto, ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.dto.js';
import { ApiKeysRepository, type AuthenticatedKey } from './api-keys.repository.js';
import type { ApiKey } from './entities/api-key.entity.js';

/** `last_used_at` is written at most this often per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

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

  constructor(
    // Only for `requireOrganization`, which asks the organizations' table.
    private readonly transactions: Transactions,
    private readonly keys: ApiKeysRepository,
  ) {}

  /** Creates a key; the plaintext is in this response only and is never stored. */
  async create(organizationId: string, dto: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    await requireOrganization(this.transactions, organizationId);
    const { key, prefix, hash } = generateApiKey();
    const saved = await this.keys.insert({
      organizationId,
      name: dto.name,
      scopes: dto.scopes,
      prefix,
      keyHash: hash,
    });
    return { ...toApiKeyResponse(saved), key };
  }

  async list(organizationId: string, query: PaginationQuery): Promise<Page<ApiKeyResponse>> {
    await requireOrganization(this.transactions, organizationId);
    const [keys, total] = await this.keys.listLive(organizationId, query);
    return toPage(keys.map(toApiKeyResponse), total, query);
  }

  /** Deletes a key; its very next request is refused on every replica (keys are not cached). */
  async delete(id: string): Promise<void> {
    if (!(await this.keys.softDelete(id))) throw ApiError.notFound('api_key');
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
    const found = await this.keys.findByHash(
      hash,
      count && { ...count.known, periodStart: count.periodStart },
    );
    if (found === null) {
      this.known.delete(hash);
      return { key: null, calls: null };
    }
    const { key, calls } = found;
    if (this.known.size >= KNOWN_KEYS_MAX) this.known.clear();
    this.known.set(hash, {
      organizationId: key.organizationId,
      subscriptionStartedAt: key.organization.subscriptionStartedAt,
    });
    return { key, calls };
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
    this.keys
      .touch(key.id)
      .catch((error: unknown) =>
        this.logger.warn(`Could not record last use of a key: ${String(error)}`),
      );
  }
}
