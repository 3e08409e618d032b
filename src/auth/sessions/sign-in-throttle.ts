import { ApiError } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';
import { addressKey } from '../../common/http/address-key.js';

/** Wrong operator tokens (sign-ins or bearer tokens) a client address may send per window before it must wait. */
export const SIGN_IN_FAILURES_ALLOWED = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/**
 * Failed sign-ins from all addresses together, per window, past which `failed` reports a
 * possible distributed guess (the service logs it). Not a lock: a lock for everyone would let
 * anyone keep the operator out with a few wrong tokens (found by review).
 */
export const SIGN_IN_FAILURES_WORTH_A_WARNING = 50;

interface Failures {
  count: number;
  windowEndsAt: number;
}

/**
 * Slows down guessing of the operator token: after `SIGN_IN_FAILURES_ALLOWED` wrong tokens
 * from one address, that address is refused (429, even with the right token) until its window
 * ends. Per process, like the per-minute limiter's memory store; a success clears the count.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();
  private everyAddress: Failures | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Throws 429 while `client` has used up its failures. */
  check(address: string): void {
    const client = addressKey(address);
    const entry = this.current(client);
    if (!entry || entry.count < SIGN_IN_FAILURES_ALLOWED) return;
    const retryAfter = Math.max(1, Math.ceil((entry.windowEndsAt - this.now()) / 1000));
    throw new ApiError(
      429,
      ErrorCode.RateLimitExceeded,
      'Too many wrong operator tokens from this address; try again later.',
      { limit: SIGN_IN_FAILURES_ALLOWED, retry_after: retryAfter, window: 'sign_in' },
      { 'Retry-After': String(retryAfter) },
    );
  }

  /**
   * Counts a failure of `address`; answers the failures of all addresses in this window when
   * they have just reached `SIGN_IN_FAILURES_WORTH_A_WARNING` (once per window), else null.
   */
  failed(address: string): number | null {
    const client = addressKey(address);
    const entry = this.current(client);
    if (entry) entry.count++;
    else this.failures.set(client, { count: 1, windowEndsAt: this.now() + SIGN_IN_WINDOW_MS });
    if (this.failures.size > 10_000) this.forgetEnded();
    if (this.everyAddress === undefined || this.everyAddress.windowEndsAt <= this.now()) {
      this.everyAddress = { count: 0, windowEndsAt: this.now() + SIGN_IN_WINDOW_MS };
    }
    this.everyAddress.count++;
    return this.everyAddress.count === SIGN_IN_FAILURES_WORTH_A_WARNING
      ? this.everyAddress.count
      : null;
  }

  succeeded(address: string): void {
    this.failures.delete(addressKey(address));
  }

  private current(client: string): Failures | undefined {
    const entry = this.failures.get(client);
    if (entry && entry.windowEndsAt <= this.now()) {
      this.failures.delete(client);
      return undefined;
    }
    return entry;
  }

  private forgetEnded(): void {
    const now = this.now();
    for (const [client, entry] of this.failures) {
      if (entry.windowEndsAt <= now) this.failures.delete(client);
    }
  }
}
