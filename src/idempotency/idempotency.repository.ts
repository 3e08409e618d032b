import { Injectable } from '@nestjs/common';
import { deleteInBatches } from '../database/batched-delete.js';
import { sql } from '../database/sql.js';
import { Transactions } from '../database/transactions.js';

/** How long a key is remembered (CONTRACT §8). */
export const RETENTION = '24 hours';
/** A claim this old is taken over whatever its lock says (a lock held by a stuck session). */
const STALE_CLAIM = '5 minutes';

/**
 * Claims key $2 of owner $1 for fingerprint $3: a new key, an expired one, or a claim of the
 * same request left without an answer, stale, or older than $4 ms and whose lock $5 nobody
 * holds (`IdempotencyStore` says why). Returns the new claim's token; no row: not claimed.
 */
const CLAIM = sql(
  'idempotency.claim',
  `INSERT INTO idempotency_record (owner, key, fingerprint, response_status, response_body, locked_at, created_at)
       VALUES ($1, $2, $3, NULL, NULL, now(), now())
       ON CONFLICT (owner, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, response_status = NULL, response_body = NULL,
              locked_at = now(), created_at = now(), claim_token = EXCLUDED.claim_token
        WHERE idempotency_record.created_at < now() - interval '${RETENTION}'
           OR (idempotency_record.response_status IS NULL
               AND idempotency_record.fingerprint = EXCLUDED.fingerprint
               AND (idempotency_record.locked_at < now() - interval '${STALE_CLAIM}'
                    OR (idempotency_record.locked_at < now() - make_interval(secs => $4::double precision / 1000)
                        AND pg_try_advisory_xact_lock(hashtextextended($5, 0)))))
       RETURNING claim_token`,
);

const FIND = sql(
  'idempotency.find',
  'SELECT fingerprint, response_status, response_body FROM idempotency_record WHERE owner = $1 AND key = $2',
);

/** Whether claim $3 of key $2 of owner $1 is still unanswered and the same claim. */
const IS_OPEN_CLAIM = sql(
  'idempotency.isOpenClaim',
  `SELECT 1 FROM idempotency_record
        WHERE owner = $1 AND key = $2 AND claim_token = $3 AND response_status IS NULL`,
);

const ANSWER = sql(
  'idempotency.answer',
  `UPDATE idempotency_record SET response_status = $4, response_body = $5
        WHERE owner = $1 AND key = $2 AND claim_token = $3`,
);

const RELEASE = sql(
  'idempotency.release',
  `DELETE FROM idempotency_record
        WHERE owner = $1 AND key = $2 AND claim_token = $3 AND response_status IS NULL`,
);

/** Keys older than the retention period, at most $1 (`deleteInBatches`' batch size). */
const deleteExpired = (limit: string) =>
  `DELETE FROM idempotency_record WHERE (owner, key) IN (
           SELECT owner, key FROM idempotency_record
            WHERE created_at < now() - interval '${RETENTION}' LIMIT ${limit})`;
sql('idempotency.deleteExpired', deleteExpired('$1'));

/** One key of one owner (an organization's, or the operator's). */
export interface KeyOf {
  owner: string;
  key: string;
}

/** What is stored of a key: the request's fingerprint, and its answer once there is one. */
export interface StoredKey {
  fingerprint: string;
  response_status: number | null;
  response_body: unknown;
}

/** The `idempotency_record` table: claims of keys, and the answers stored with the change. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Claims the key if it is free or may be taken over (see `CLAIM`); the token of the claim,
   * or null. Commits on its own, outside the request's transaction.
   */
  async claim(
    { owner, key }: KeyOf,
    fingerprint: string,
    unheldClaimMs: number,
    lockName: string,
  ): Promise<string | null> {
    const claimed: Array<{ claim_token: string }> = await this.transactions.outside.query(CLAIM, [
      owner,
      key,
      fingerprint,
      unheldClaimMs,
      lockName,
    ]);
    return claimed.length === 1 ? claimed[0].claim_token : null;
  }

  /** The key as stored, read outside the request's transaction; null when there is none. */
  async find({ owner, key }: KeyOf): Promise<StoredKey | null> {
    const [existing]: StoredKey[] = await this.transactions.outside.query(FIND, [owner, key]);
    return existing ?? null;
  }

  async isOpenClaim({ owner, key }: KeyOf, token: string): Promise<boolean> {
    const [mine] = await this.transactions.manager.query(IS_OPEN_CLAIM, [owner, key, token]);
    return mine !== undefined;
  }

  /** Stores the answer of claim `token` in the current transaction; false if it is not. */
  async answer(
    { owner, key }: KeyOf,
    token: string,
    status: number,
    body: unknown,
  ): Promise<boolean> {
    const [, updated]: [unknown[], number] = await this.transactions.manager.query(ANSWER, [
      owner,
      key,
      token,
      status,
      JSON.stringify(body ?? null),
    ]);
    return updated === 1;
  }

  /** Deletes claim `token` if it is still unanswered; on its own. */
  async release({ owner, key }: KeyOf, token: string): Promise<void> {
    await this.transactions.outside.query(RELEASE, [owner, key, token]);
  }

  /** Deletes keys older than the retention period; returns how many. */
  deleteExpired(): Promise<number> {
    return deleteInBatches(this.transactions, deleteExpired);
  }
}
