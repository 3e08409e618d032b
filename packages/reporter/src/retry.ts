/** SPEC.md's retry guidance (section Limits): base 1 s × 2^attempt + 0–500 ms jitter, ≤ 60 s, 5 attempts. */
export const RETRY = { baseMs: 1000, maxWaitMs: 60_000, jitterMs: 500, maxAttempts: 5 } as const;

/** The wait before retry number `retry` (0 for the first retry) when the service named none. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const jitter = Math.floor(random() * (RETRY.jitterMs + 1));
  return Math.min(RETRY.baseMs * 2 ** retry + jitter, RETRY.maxWaitMs);
}

/** `Retry-After` (seconds, or an HTTP date) in milliseconds, at most the maximum wait. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(ms, RETRY.maxWaitMs);
}

/**
 * Polling for the answer of another shard's identical request while it is in flight (409
 * `idempotency_key_in_use`, which names no wait): creating a run takes the service tens of
 * milliseconds, and every shard that asks meanwhile waits for it before its first upload, so
 * 100 ms × 2^poll + 0–25 ms jitter, at most 5 s between polls. Not sooner: every poll is a
 * call of the organization's monthly quota (issue 28: polls from 25 ms on were a fifth of a
 * 4-shard pipeline's calls).
 */
const IN_FLIGHT = { baseMs: 100, maxWaitMs: 5000, jitterMs: 25 } as const;

export function inFlightWaitMs(poll: number, random: () => number = Math.random): number {
  const jitter = Math.floor(random() * (IN_FLIGHT.jitterMs + 1));
  return Math.min(IN_FLIGHT.baseMs * 2 ** poll, IN_FLIGHT.maxWaitMs) + jitter;
}
