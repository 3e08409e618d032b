import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Settings } from '../../config/settings.js';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/unavailable.js';

interface Turn {
  cost: number;
  start: () => void;
}

/**
 * The per-process memory budget of request bodies (CONTRACT §1): a body is read only once its
 * estimated cost (`bodyCost`) fits beside those held already, and its share is held until the
 * response ends or the connection closes. Requests wait their turn first come first served (a
 * small body does not overtake a large one), each at most `BODY_BUDGET_WAIT_MS`, then answer
 * 503 with `Retry-After`. A body that costs more than the whole budget runs alone.
 */
@Injectable()
export class BodyBudget {
  private held = 0;
  private readonly waiting: Turn[] = [];
  private readonly capacity: number;
  private readonly waitMs: number;

  constructor(settings: Settings) {
    this.capacity = settings.bodyMemoryBudgetBytes;
    this.waitMs = settings.bodyBudgetWaitMs;
  }

  /** Resolves once `cost` is held for `res`'s request; rejects with 503 past the wait. */
  async hold(res: Response, cost: number): Promise<void> {
    // The guard before may have waited on the database while the client left: its 'close'
    // came already, and a share taken now would never come back.
    if (res.closed || res.socket === null || res.socket.destroyed) throw busy();
    const share = Math.min(cost, this.capacity);
    if (this.waiting.length === 0 && this.held + share <= this.capacity) {
      this.take(res, share);
      return;
    }
    await this.wait(res, share);
    // Its turn came, but the client may have left in the same turn of the event loop (its
    // share came back then): read nothing.
    if (res.closed) throw busy();
  }

  /** Holds `share` until `res` closes, its release bound in the same step as the taking. */
  private take(res: Response, share: number): void {
    this.held += share;
    res.once('close', () => this.release(share));
  }

  /** What is held now, in bytes of estimated cost. */
  get inUse(): number {
    return this.held;
  }

  private wait(res: Response, cost: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const leave = (error: ApiError) => {
        clearTimeout(timer);
        res.off('close', gone);
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        // A large turn at the head that leaves may let the smaller ones behind it start.
        this.startWaiting();
        reject(error);
      };
      const turn: Turn = {
        cost,
        start: () => {
          clearTimeout(timer);
          res.off('close', gone);
          this.take(res, cost);
          resolve();
        },
      };
      const timer = setTimeout(() => leave(busy()), this.waitMs);
      // A client that gives up while waiting leaves the queue (its answer goes nowhere).
      const gone = () => leave(busy());
      res.once('close', gone);
      this.waiting.push(turn);
    });
  }

  private release(cost: number): void {
    this.held -= cost;
    this.startWaiting();
  }

  private startWaiting(): void {
    for (;;) {
      const next = this.waiting[0];
      if (next === undefined) return;
      if (this.held > 0 && this.held + next.cost > this.capacity) return;
      this.waiting.shift();
      next.start();
    }
  }
}

function busy(): ApiError {
  return new ApiError(
    503,
    ErrorCode.ServiceUnavailable,
    'The service is reading as many request bodies as its memory allows; retry shortly.',
    {},
    { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );
}
