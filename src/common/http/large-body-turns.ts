import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { ConcurrencyGate } from '../concurrency-gate.js';

/** A body larger than this, on a route marked `@LargeBodiesTakeTurns()`, waits for a turn. */
export const LARGE_BODY_BYTES = 1024 * 1024;
/** Turns per process: storing a 10 MiB JUnit report takes about 100 MB while it runs. */
const LARGE_BODIES_AT_ONCE = 2;

const TAKES_TURNS = 'large_bodies_take_turns';

/**
 * Marks a route whose large bodies are handled `LARGE_BODIES_AT_ONCE` at a time per process,
 * in arrival order, so memory stays bounded however many clients send one at the same moment.
 */
export const LargeBodiesTakeTurns = () => SetMetadata(TAKES_TURNS, true);

/**
 * Gives turns to large bodies on marked routes. It runs after the access guard (only a caller
 * that may use the route waits) and before every other interceptor, so a request waiting for
 * its turn holds no transaction and no database connection.
 */
@Injectable()
export class LargeBodyTurnsInterceptor implements NestInterceptor {
  private readonly turns = new ConcurrencyGate(LARGE_BODIES_AT_ONCE);

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.reflector.get<boolean>(TAKES_TURNS, context.getHandler())) return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const size =
      Number(req.get('content-length')) ||
      (typeof req.body === 'string' ? Buffer.byteLength(req.body) : 0);
    if (size <= LARGE_BODY_BYTES) return next.handle();
    return from(
      this.turns.run(() => lastValueFrom(next.handle(), { defaultValue: undefined as unknown })),
    );
  }
}
