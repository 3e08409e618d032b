import {
  type CallHandler,
  type ExecutionContext,
  HttpStatus,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable, of } from 'rxjs';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { fingerprintOf } from '../common/http/fingerprint.js';
import { HttpResult } from '../common/http/http-result.js';
import { Transactions } from '../database/transactions.js';
import { IdempotencyStore, takenOver } from './idempotency.store.js';
import { SHOWN_ONCE_METADATA, withoutSecrets } from './shown-once.decorator.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_KEY_LENGTH = 255;

/**
 * `Idempotency-Key` on every POST (CONTRACT §8). The first request claims the key; its
 * handler runs inside one transaction together with the storing of its response, so the
 * change and the response commit (or roll back) together. A repeat replays that response;
 * another request with the same key is 422; a repeat while the first runs is 409. Requests
 * refused before the handler (auth, limits, validation) store nothing.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly transactions: Transactions,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const key = req.get(IDEMPOTENCY_HEADER);
    if (req.method !== 'POST' || key === undefined) return next.handle();
    if (key.length < 1 || key.length > MAX_KEY_LENGTH) {
      throw ApiError.invalidField(
        IDEMPOTENCY_HEADER,
        `${IDEMPOTENCY_HEADER} must be 1 to ${MAX_KEY_LENGTH} characters`,
      );
    }

    const owner = req.principal ? `org:${req.principal.organization.id}` : 'internal';
    const claim = await this.store.claim(owner, key, req.fingerprint ?? fingerprintOf(req));
    switch (claim.kind) {
      case 'mismatch':
        throw new ApiError(
          422,
          ErrorCode.IdempotencyKeyReused,
          `This ${IDEMPOTENCY_HEADER} was used for another request.`,
        );
      case 'in_flight':
        throw new ApiError(
          409,
          ErrorCode.IdempotencyKeyInUse,
          `A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry shortly.`,
        );
      case 'replay':
        context.switchToHttp().getResponse<Response>().setHeader('Idempotent-Replayed', 'true');
        return of(new HttpResult(claim.status, claim.body));
      case 'claimed':
        return from(this.runAndRemember(context, next, owner, key, claim.token));
    }
  }

  private async runAndRemember(
    context: ExecutionContext,
    next: CallHandler,
    owner: string,
    key: string,
    token: string,
  ): Promise<unknown> {
    let takenOverByRetry = false;
    try {
      return await this.transactions.begin(async () => {
        // A retry took the claim over while this request was slow to start: the retry does
        // the work, and this request answers as a retry in flight would (409).
        if (!(await this.store.holdClaim(owner, key, token))) {
          takenOverByRetry = true;
          throw takenOver();
        }
        const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
        const [status, body] =
          result instanceof HttpResult
            ? [result.status, result.body]
            : [this.statusOf(context), result];
        const secrets = this.reflector.get<string[] | undefined>(
          SHOWN_ONCE_METADATA,
          context.getHandler(),
        );
        const stored = await this.store.complete(
          owner,
          key,
          token,
          status,
          withoutSecrets(body, secrets),
        );
        // The claim went to a retry while this request ran: its change is rolled back, so
        // the work is done once, by the retry.
        if (!stored) {
          takenOverByRetry = true;
          throw takenOver();
        }
        return result;
      });
    } catch (error) {
      // A claim a retry took over is the retry's: nothing of this request is kept.
      if (takenOverByRetry) throw error;
      // A conflict with the resource's state (409) is the request's answer and is replayed;
      // nothing was changed, so storing it outside the rolled-back transaction is exact.
      // Invalid input (400, 413, …), wherever it was found, stores nothing: the fixed request
      // may use the same key.
      if (error instanceof ApiError && !error.beforeHandler && error.getStatus() === 409) {
        await this.store.complete(owner, key, token, error.getStatus(), error.toEnvelope());
      } else {
        await this.store.release(owner, key, token);
      }
      throw error;
    }
  }

  private statusOf(context: ExecutionContext): number {
    return (
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ??
      HttpStatus.CREATED
    );
  }
}
