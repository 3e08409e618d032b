import { ReporterError, asEnvelope, serviceError } from './errors.js';
import { RETRY, backoffMs, retryAfterMs } from './retry.js';

export interface RetryOptions {
  fetch?: (request: Request) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Told of every retry, with the reason and the wait. */
  onRetry?: (what: string, reason: string, waitMs: number, attempt: number) => void;
  /** Per attempt; a timed-out attempt counts as a network error. */
  timeoutMs?: number;
}

type Verdict = { retry: false } | { retry: true; reason: string; waitMs?: number };

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'no answer in time';
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Which answers are worth another attempt (SPEC.md, Limits): a per-minute 429, a 5xx, and the
 * 409 `idempotency_key_in_use` that another shard's identical request causes while it is in
 * flight (the retry gets its replay). A monthly-quota 429 fails at once, naming the reset.
 */
async function verdictOf(response: Response): Promise<Verdict> {
  const status = response.status;
  if (status >= 500) {
    return {
      retry: true,
      reason: `${status}`,
      waitMs: retryAfterMs(response.headers.get('retry-after')),
    };
  }
  if (status !== 429 && status !== 409) return { retry: false };
  const { error, details = {} } = asEnvelope(await bodyOf(response));
  if (status === 409) {
    return error === 'idempotency_key_in_use'
      ? { retry: true, reason: '409 idempotency_key_in_use' }
      : { retry: false };
  }
  if (details.window === 'month' || (details.window === undefined && details.reset_at)) {
    const limit = details.limit === undefined ? '' : ` of ${String(details.limit)} calls`;
    throw new ReporterError(
      `The organization's monthly API quota${limit} is used up (429 rate_limit_exceeded); it resets at ${String(details.reset_at ?? 'the next billing period')}. Not retrying.`,
    );
  }
  return {
    retry: true,
    reason: '429 per-minute limit',
    waitMs: retryAfterMs(response.headers.get('retry-after')),
  };
}

/**
 * A `fetch` for openapi-fetch that retries as SPEC.md recommends: network errors, per-minute
 * 429s and 5xx, waiting `Retry-After` when given, else 1 s × 2^attempt + jitter (≤ 60 s), at most
 * 5 attempts. Every POST the reporter sends carries an `Idempotency-Key`, so a retry of a
 * request the service did carry out is answered with its replay, not done twice.
 */
export function retryingFetch(options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? sleepFor;
  const timeoutMs = options.timeoutMs ?? 300_000;
  return async (request: Request) => {
    const what = `${request.method} ${new URL(request.url).pathname}`;
    for (let attempt = 1; ; attempt++) {
      let verdict: Verdict;
      let response: Response | undefined;
      const attemptRequest = new Request(request.clone(), {
        signal: AbortSignal.timeout(timeoutMs),
      });
      try {
        response = await send(attemptRequest);
        verdict = await verdictOf(response);
      } catch (error) {
        if (error instanceof ReporterError) throw error;
        verdict = { retry: true, reason: `network error (${describeNetworkError(error)})` };
      }
      if (!verdict.retry && response) return response;
      if (!verdict.retry) throw new ReporterError(`${what} failed`);
      if (attempt >= RETRY.maxAttempts) {
        if (response)
          throw serviceError(
            `${what} (${attempt} attempts)`,
            response.status,
            await bodyOf(response),
          );
        const origin = new URL(request.url).origin;
        throw new ReporterError(
          `Cannot reach the service at ${origin} (TM_URL): ${verdict.reason} on all ${attempt} attempts.`,
        );
      }
      await response?.body?.cancel().catch(() => undefined);
      const waitMs = verdict.waitMs ?? backoffMs(attempt - 1, options.random);
      options.onRetry?.(what, verdict.reason, waitMs, attempt);
      await sleep(waitMs);
    }
  };
}
