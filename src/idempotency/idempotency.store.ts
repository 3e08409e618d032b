import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Transactions } from '../database/transactions.js';

/** How long a key is remembered (CONTRACT §8). */
export const RETENTION = '24 hours';
/**
 * A running request holds its claim's lock (`holdClaim`) from the start of its transaction to
 * its end. A claim left without an answer whose lock nobody holds belongs to a request that
 * died with its process, and is taken over at once by the request's retry, once the claim is
 * this old (the moment between the claim and its transaction's first statement).
 */
const UNHELD_CLAIM = '10 seconds';
/** A claim this old is taken over whatever its lock says (a lock held by a stuck session). */
const STALE_CLAIM = '5 minutes';

/** The advisory lock of one claim (one key of one owner). */
const CLAIM_LOCK = `hashtextextended('idempotency:' || $1 || ':' || $2, 0)`;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' }
  | { kind: 'replay'; status: number; body: unknown };

@Injectable()
export class IdempotencyStore {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Claims `key` for a request with this fingerprint, or says why not. The claim commits on
   * its own, so a concurrent request sees it (409, or 422 for another request) while the
   * first is still running.
   */
  async claim(owner: string, key: string, fingerprint: string): Promise<Claim> {
    const manager = this.transactions.manager;
    const claimed: unknown[] = await manager.query(
      `INSERT INTO idempotency_record (owner, key, fingerprint, response_status, response_body, locked_at, created_at)
       VALUES ($1, $2, $3, NULL, NULL, now(), now())
       ON CONFLICT (owner, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, response_status = NULL, response_body = NULL,
              locked_at = now(), created_at = now()
        WHERE idempotency_record.created_at < now() - interval '${RETENTION}'
           OR (idempotency_record.response_status IS NULL
               AND idempotency_record.fingerprint = EXCLUDED.fingerprint
               AND (idempotency_record.locked_at < now() - interval '${STALE_CLAIM}'
                    OR (idempotency_record.locked_at < now() - interval '${UNHELD_CLAIM}'
                        AND pg_try_advisory_xact_lock(${CLAIM_LOCK}))))
       RETURNING 1`,
      [owner, key, fingerprint],
    );
    if (claimed.length === 1) return { kind: 'claimed' };
    const [existing]: Array<{
      fingerprint: string;
      response_status: number | null;
      response_body: unknown;
    }> = await manager.query(
      'SELECT fingerprint, response_status, response_body FROM idempotency_record WHERE owner = $1 AND key = $2',
      [owner, key],
    );
    // Gone between the two statements (cleanup or a released claim): ask again.
    if (!existing) return this.claim(owner, key, fingerprint);
    if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (existing.response_status === null) return { kind: 'in_flight' };
    return { kind: 'replay', status: existing.response_status, body: existing.response_body };
  }

  /**
   * Marks the claim as held by a live request for the rest of `manager`'s transaction (a
   * process that dies loses it with its connection, and its retry takes the claim over).
   */
  async holdClaim(manager: EntityManager, owner: string, key: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`, [owner, key]);
  }

  /** Stores the response; given the handler's transaction, it commits with the change. */
  async complete(
    manager: EntityManager,
    owner: string,
    key: string,
    status: number,
    body: unknown,
  ): Promise<void> {
    await manager.query(
      'UPDATE idempotency_record SET response_status = $3, response_body = $4 WHERE owner = $1 AND key = $2',
      [owner, key, status, JSON.stringify(body ?? null)],
    );
  }

  /** Frees a claim whose request changed nothing worth replaying (refused, or failed on our side). */
  async release(owner: string, key: string): Promise<void> {
    await this.transactions.manager.query(
      'DELETE FROM idempotency_record WHERE owner = $1 AND key = $2 AND response_status IS NULL',
      [owner, key],
    );
  }

  /** Deletes keys older than the retention period; returns how many. */
  async purgeExpired(): Promise<number> {
    const result: [unknown[], number] = await this.transactions.manager.query(
      `DELETE FROM idempotency_record WHERE created_at < now() - interval '${RETENTION}'`,
    );
    return result[1];
  }
}
