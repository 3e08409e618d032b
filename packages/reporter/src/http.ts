import { gzipSync } from 'node:zlib';
import { ReporterError, asEnvelope, foreignAnswer, serviceError } from './errors.js';
import { oneLine } from './output.js';
import { RETRY, backoffMs, inFlightWaitMs, retryAfterMs } from './retry.js';
import { httpTransport, type Outgoing, type Transport } from './transport.js';

export interface RetryOptions {
  /** Sends one attempt (default: node:http); tests script answers or count calls with it. */
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Told of every retry, with the reason and the wait. */
  onRetry?: (what: string, reason: string, waitMs: number, attempt: number) => void;
  /** Per attempt; a timed-out attempt counts as a network error. */
  timeoutMs?: number;
}

type Verdict =
  { retry: false } | { retry: true; reason: string; waitMs?: number; inFlight?: boolean };

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function networkErrorCode(error: unknown): string | undefined {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  const found = typeof code === 'string' ? code : cause?.code;
  return typeof found === 'string' ? found : undefined;
}

/**
 * TLS errors no retry mends: the certificate is not one this machine trusts, not for this
 * host, or out of date. Node names them by these codes (OpenSSL's, and its own for the host).
 */
const CERTIFICATE_ERRORS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed and not trusted here',
  SELF_SIGNED_CERT_IN_CHAIN: 'comes from a certificate authority not trusted here',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'comes from a certificate authority not trusted here',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'comes from a certificate authority not trusted here',
  CERT_UNTRUSTED: 'is not trusted here',
  ERR_TLS_CERT_ALTNAME_INVALID: 'is not for this host name',
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet',
};

/**
 * A network error's code (ECONNREFUSED, ENOTFOUND…), else its message. No `instanceof Error`:
 * node's errors come from another realm than a test's.
 */
function describeNetworkError(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { name, message, cause } = error as { name?: unknown; message?: unknown; cause?: unknown };
  if (name === 'TimeoutError') return 'no answer in time';
  const causeMessage = (cause as { message?: unknown } | undefined)?.message;
  return networkErrorCode(error) ?? String(causeMessage ?? message ?? error);
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
      ? { retry: true, reason: '409 idempotency_key_in_use', inFlight: true }
      : { retry: false };
  }
  if (details.window === 'month' || (details.window === undefined && details.reset_at)) {
    const limit = details.limit === undefined ? '' : ` of ${oneLine(details.limit, 20)} calls`;
    throw new ReporterError(
      `The organization's monthly API quota${limit} is used up (429 rate_limit_exceeded); it resets at ${oneLine(details.reset_at ?? 'the next billing period', 40)}. Not retrying.`,
    );
  }
  return {
    retry: true,
    reason: '429 per-minute limit',
    waitMs: retryAfterMs(response.headers.get('retry-after')),
  };
}

/** Bodies over this go gzipped (the service inflates them; its 10 MiB limit is the inflated size). */
export const GZIP_OVER_BYTES = 1024 * 1024;

/** The request with its body gzipped when it is over 1 MiB: compressed once, sent on every attempt. */
export function compressed(outgoing: Outgoing): Outgoing {
  if (!outgoing.body || outgoing.body.length <= GZIP_OVER_BYTES) return outgoing;
  if (outgoing.headers['content-encoding'] !== undefined) return outgoing;
  return {
    ...outgoing,
    headers: { ...outgoing.headers, 'content-encoding': 'gzip' },
    body: gzipSync(outgoing.body),
  };
}

/**
 * A `fetch` for openapi-fetch that retries as SPEC.md recommends: network errors, per-minute
 * 429s and 5xx, waiting `Retry-After` when given, else 1 s × 2^attempt + jitter (≤ 60 s), at most
 * 5 attempts. Every POST the reporter sends carries an `Idempotency-Key`, so a retry of a
 * request the service did carry out is answered with its replay, not done twice. While another
 * shard's identical request is in flight (409 `idempotency_key_in_use`) it polls for the replay
 * from 100 ms on instead: those polls are no failures and count apart. An answer that is not
 * the service's (a redirect, an HTML page) is an error about TM_URL, as are an unknown host and
 * a TLS certificate this machine does not trust (no retry mends those).
 */
export function retryingFetch(options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const send = options.transport ?? httpTransport;
  const sleep = options.sleep ?? sleepFor;
  const timeoutMs = options.timeoutMs ?? 300_000;
  return async (request: Request) => {
    const url = new URL(request.url);
    const what = `${request.method} ${url.pathname}`;
    const outgoing = compressed({
      method: request.method,
      url,
      headers: Object.fromEntries(request.headers),
      body: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
    });
    let polledMs = 0;
    for (let attempt = 1, polls = 0; ;) {
      let verdict: Verdict;
      let response: Response | undefined;
      try {
        response = await send(outgoing, timeoutMs);
        verdict = await verdictOf(response);
      } catch (error) {
        if (error instanceof ReporterError) throw error;
        const code = networkErrorCode(error);
        if (code === 'ENOTFOUND') {
          throw new ReporterError(
            `Cannot reach the service: the host ${url.hostname} of TM_URL is not known (DNS: ENOTFOUND); check TM_URL.`,
          );
        }
        if (code !== undefined && Object.hasOwn(CERTIFICATE_ERRORS, code)) {
          throw new ReporterError(
            `Cannot reach the service at ${url.origin} (TM_URL): its TLS certificate ${CERTIFICATE_ERRORS[code]} (${code}). If it is right, point NODE_EXTRA_CA_CERTS at its certificate authority's certificate (a local install: .local/tls/localhost.crt). Not retrying.`,
          );
        }
        verdict = { retry: true, reason: `network error (${describeNetworkError(error)})` };
      }
      // Only an answer gets a verdict that says not to retry.
      if (!verdict.retry) {
        const foreign = foreignAnswer(what, url, response as Response);
        if (foreign) throw foreign;
        return response as Response;
      }
      if (verdict.inFlight && polledMs < timeoutMs) {
        await response?.body?.cancel().catch(() => undefined);
        const waitMs = inFlightWaitMs(polls++, options.random);
        polledMs += waitMs;
        options.onRetry?.(what, verdict.reason, waitMs, attempt);
        await sleep(waitMs);
        continue;
      }
      if (attempt >= RETRY.maxAttempts) {
        if (response) {
          throw (
            foreignAnswer(`${what} (${attempt} attempts)`, url, response) ??
            serviceError(
              `${what} (${attempt} attempts)`,
              response.status,
              await bodyOf(response),
              request.url,
            )
          );
        }
        throw new ReporterError(
          `Cannot reach the service at ${url.origin} (TM_URL): ${verdict.reason} on all ${attempt} attempts; check TM_URL's host and port.`,
        );
      }
      await response?.body?.cancel().catch(() => undefined);
      const waitMs = verdict.waitMs ?? backoffMs(attempt - 1, options.random);
      options.onRetry?.(what, verdict.reason, waitMs, attempt);
      attempt++;
      await sleep(waitMs);
    }
  };
}
