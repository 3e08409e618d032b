import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { Settings } from '../config/settings.js';
import { lockForTransaction } from '../database/advisory-locks.js';
import { Transactions } from '../database/transactions.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/**
 * A running request holds its claim's lock (`holdClaim`) from the start of its transaction to
 * its end. A claim left without an answer whose lock nobody holds belongs to a request that
 * died with its process, and is taken over by the request's retry once the claim is older
 * than the moment between the claim and its transaction's first statement can be (which
 * includes waiting for a connection): at least 10 s, and 5 s more than the connect timeout.
 */
const UNHELD_CLAIM_MIN_MS = 10_000;

/** The name of the advisory lock of one claim (one key of one owner). */
const claimLock = (owner: string, key: string) => `idempotency:${owner}:${key}`;

export type Claim =
  /** `token` names this claim: only its holder may answer or release it. */
  | { kind: 'claimed'; token: string }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' }
  | { kind: 'replay'; status: number; body: unknown };

@Injectable()
export class IdempotencyStore {
  private readonly unheldClaimMs: number;

  constructor(
    // Only for the claim's lock, taken in the request's transaction.
    private readonly transactions: Transactions,
    private readonly records: IdempotencyRepository,
    settings: Settings,
  ) {
    this.unheldClaimMs = Math.max(UNHELD_CLAIM_MIN_MS, settings.databaseConnectTimeoutMs + 5_000);
  }

  /**
   * Claims `key` for a request with this fingerprint, or says why not. The claim commits on
   * its own, so a concurrent request sees it (409, or 422 for another request) while the
   * first is still running.
   */
  async claim(owner: string, key: string, fingerprint: string): Promise<Claim> {
    // Outside the request's transaction (none is open yet): the claim commits on its own.
    const token = await this.records.claim(
      { owner, key },
      fingerprint,
      this.unheldClaimMs,
      claimLock(owner, key),
    );
    if (token !== null) return { kind: 'claimed', token };
    const existing = await this.records.find({ owner, key });
    // Gone between the two statements (cleanup or a released claim): ask again.
    if (!existing) return this.claim(owner, key, fingerprint);
    if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (existing.response_status === null) return { kind: 'in_flight' };
    return { kind: 'replay', status: existing.response_status, body: existing.response_body };
  }

  /**
   * Marks the claim as held by a live request for the rest of the current transaction (a
   * process that dies loses it with its connection, and its retry takes the claim over), and
   * answers whether the claim is still this request's (false: a retry took it over while this
   * request was slow to start).
   */
  async holdClaim(owner: string, key: string, token: string): Promise<boolean> {
    await lockForTransaction(this.transactions, claimLock(owner, key));
    return this.records.isOpenClaim({ owner, key }, token);
  }

  /**
   * Stores the response of the claim `token`; in the handler's transaction, it commits with
   * the change (after that rolled back, on its own). False when the claim was taken over
   * meanwhile: it is the retry's now.
   */
  async complete(
    owner: string,
    key: string,
    token: string,
    status: number,
    body: unknown,
  ): Promise<boolean> {
    return this.records.answer({ owner, key }, token, status, body);
  }

  /**
   * Frees the claim `token` when its request changed nothing worth replaying (refused, or
   * failed on our side); a claim taken over by a retry meanwhile is the retry's, and stays.
   */
  async release(owner: string, key: string, token: string): Promise<void> {
    // After the request's transaction rolled back: on its own.
    await this.records.release({ owner, key }, token);
  }

  /** Deletes keys older than the retention period; returns how many. */
  purgeExpired(): Promise<number> {
    return this.records.deleteExpired();
  }
}

/** 409: the claim went to a retry of the same request (this one was thought dead). */
export function takenOver(): ApiError {
  return new ApiError(
    409,
    ErrorCode.IdempotencyKeyInUse,
    'A retry with this Idempotency-Key took the request over; its answer is the one kept.',
  );
}
