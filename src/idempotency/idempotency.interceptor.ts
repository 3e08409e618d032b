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
import { IdempotencyStore } from './idempotency.store.js';
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
        return from(this.runAndRemember(context, next, owner, key));
    }
  }

  private async runAndRemember(
    context: ExecutionContext,
    next: CallHandler,
    owner: string,
    key: string,
  ): Promise<unknown> {
    try {
      return await this.transactions.begin(async (manager) => {
        await this.store.holdClaim(manager, owner, key);
        const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
        const [status, body] =
          result instanceof HttpResult
            ? [result.status, result.body]
            : [this.statusOf(context), result];
        const secrets = this.reflector.get<string[] | undefined>(
          SHOWN_ONCE_METADATA,
          context.getHandler(),
        );
        await this.store.complete(manager, owner, key, status, withoutSecrets(body, secrets));
        return result;
      });
    } catch (error) {
      // A conflict with the resource's state (409) is the request's answer and is replayed;
      // nothing was changed, so storing it outside the rolled-back transaction is exact.
      // Invalid input (400, 413, …), wherever it was found, stores nothing: the fixed request
      // may use the same key.
      if (error instanceof ApiError && !error.beforeHandler && error.getStatus() === 409) {
        await this.store.complete(
          this.transactions.manager,
          owner,
          key,
          error.getStatus(),
          error.toEnvelope(),
        );
      } else {
        await this.store.release(owner, key);
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
