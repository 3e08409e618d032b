import { ApiError } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';

/** Failed sign-ins a client address may make per window before it must wait. */
export const SIGN_IN_FAILURES_ALLOWED = 5;
/**
 * Failed sign-ins all addresses together may make per window: an attacker who can change the
 * address the service sees (many hosts, or a proxy that passes on a forged X-Forwarded-For)
 * still gets no more guesses than this. Past it every sign-in waits for the window's end; the
 * operator token still works on the internal API meanwhile.
 */
export const SIGN_IN_FAILURES_ALLOWED_IN_ALL = 50;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** The key of the count of every address's failures (not an address: it has no colon or dot). */
const EVERY_ADDRESS = 'every-address';

interface Failures {
  count: number;
  windowEndsAt: number;
}

/**
 * Slows down guessing of the operator token: after `SIGN_IN_FAILURES_ALLOWED` wrong tokens
 * from one address, that address is refused (429, even with the right token) until its window
 * ends, and after `SIGN_IN_FAILURES_ALLOWED_IN_ALL` from all addresses, every address is. Per
 * process, like the per-minute limiter's memory store; a success clears its address's count.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Throws 429 while `client` has used up its failures. */
  check(client: string): void {
    this.refuseOver(EVERY_ADDRESS, SIGN_IN_FAILURES_ALLOWED_IN_ALL, 'Too many failed sign-ins');
    this.refuseOver(client, SIGN_IN_FAILURES_ALLOWED, 'Too many failed sign-ins from this address');
  }

  failed(client: string): void {
    this.count(EVERY_ADDRESS);
    this.count(client);
    if (this.failures.size > 10_000) this.forgetEnded();
  }

  succeeded(client: string): void {
    this.failures.delete(client);
  }

  private refuseOver(key: string, limit: number, what: string): void {
    const entry = this.current(key);
    if (!entry || entry.count < limit) return;
    const retryAfter = Math.max(1, Math.ceil((entry.windowEndsAt - this.now()) / 1000));
    throw new ApiError(
      429,
      ErrorCode.RateLimitExceeded,
      `${what}; try again later.`,
      { limit, retry_after: retryAfter, window: 'sign_in' },
      { 'Retry-After': String(retryAfter) },
    );
  }

  private count(key: string): void {
    const entry = this.current(key);
    if (entry) entry.count++;
    else this.failures.set(key, { count: 1, windowEndsAt: this.now() + SIGN_IN_WINDOW_MS });
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
