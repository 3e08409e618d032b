import { ApiError } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';

/** Streams one process keeps open at most: each holds a socket and a subscriber. */
export const MAX_LIVE_VIEWERS = 1_000;
/**
 * Streams one holder (a console session, or the operator token) may keep open at once in a
 * process: a tenth of them, so that one browser or script cannot take every slot (a person's
 * tabs need a few).
 */
export const MAX_LIVE_VIEWERS_PER_HOLDER = MAX_LIVE_VIEWERS / 10;
/** What a refused stream is told to wait, in seconds, before it asks again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The live streams of this process, in all and per holder, counted from admission (while the
 * first read is made) until the viewer leaves.
 */
export class LiveSlots {
  private total = 0;
  private readonly held = new Map<string, number>();

  /**
   * Takes a slot for `holder`: 429 `rate_limit_exceeded` when the holder has its share (its
   * own streams are too many, not the service unavailable; `Retry-After` as the per-minute
   * limit's), 503 `service_unavailable` when the process has none left.
   */
  admit(holder: string): void {
    if ((this.held.get(holder) ?? 0) >= MAX_LIVE_VIEWERS_PER_HOLDER)
      throw new ApiError(
        429,
        ErrorCode.RateLimitExceeded,
        `Too many live views are open with these credentials (at most ${MAX_LIVE_VIEWERS_PER_HOLDER}); close some, or retry shortly.`,
        {
          limit: MAX_LIVE_VIEWERS_PER_HOLDER,
          retry_after: RETRY_AFTER_SECONDS,
          window: 'live_streams',
        },
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    if (this.total >= MAX_LIVE_VIEWERS)
      throw new ApiError(
        503,
        ErrorCode.ServiceUnavailable,
        'Too many live views are open here; retry shortly.',
        {},
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    this.take(holder);
  }

  /** Takes a slot without asking (a viewer admitted a moment ago, now subscribing). */
  take(holder: string): void {
    this.total++;
    this.held.set(holder, (this.held.get(holder) ?? 0) + 1);
  }

  release(holder: string): void {
    this.total--;
    const left = (this.held.get(holder) ?? 1) - 1;
    if (left === 0) this.held.delete(holder);
    else this.held.set(holder, left);
  }
}
