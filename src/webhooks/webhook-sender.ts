import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { cutText, storableText } from '../common/text.js';
import { type AddressPolicy, isPublicAddress } from './address-policy.js';

/** First bytes of a receiver's answer kept in the delivery log. */
const RESPONSE_BODY_LIMIT = 2048;

export interface SendOutcome {
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is a failure), the whole exchange has
 * a time limit, and every connection goes through the address policy's lookup.
 */
export class WebhookSender {
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;

  constructor(
    private readonly policy: AddressPolicy,
    private readonly timeoutMs: number,
  ) {
    const options = { keepAlive: true, maxSockets: 64, lookup: policy.connectLookup } as const;
    this.httpAgent = new HttpAgent(options as ConstructorParameters<typeof HttpAgent>[0]);
    this.httpsAgent = new HttpsAgent(options as ConstructorParameters<typeof HttpsAgent>[0]);
  }

  /**
   * Sends `body` to `url` within the time limit, counted from `limitFrom` (`performance.now()`,
   * by default now): the caller passes the moment it began to claim the attempt, so that a
   * worker whose event loop stalled past its lease never sends (another may hold the attempt by
   * then). The outcome's duration is the exchange's own.
   */
  send(
    url: string,
    body: string,
    headers: Record<string, string>,
    limitFrom?: number,
  ): Promise<SendOutcome> {
    const started = performance.now();
    const deadline = (limitFrom ?? started) + this.timeoutMs;
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // IP literals skip DNS, and so the lookup hook: check them here.
    if (isIP(host) && !this.policy.isAllowedHost(host) && !isPublicAddress(host)) {
      return Promise.resolve({
        status: null,
        body: null,
        error: `refused: ${host} is a non-public address`,
        durationMs: 0,
      });
    }
    return this.attempt(target, secure, body, headers, started, deadline, true);
  }

  /**
   * One exchange. A keep-alive connection the receiver closes just as a request goes out on
   * it fails that request with a reset before any answer; it is sent again once on another
   * connection (Node's documented remedy), instead of counting as a failed attempt that would
   * wait for its retry.
   */
  private attempt(
    target: URL,
    secure: boolean,
    body: string,
    headers: Record<string, string>,
    started: number,
    deadline: number,
    mayResend: boolean,
  ): Promise<SendOutcome> {
    const left = Math.round(deadline - performance.now());
    if (left <= 0) {
      return Promise.resolve({
        status: null,
        body: null,
        error: `timed out after ${this.timeoutMs} ms, before it was sent`,
        durationMs: Math.round(performance.now() - started),
      });
    }
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
      };
      let answered = false;
      const request = (secure ? httpsRequest : httpRequest)(
        target,
        {
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            'User-Agent': 'test-management-webhooks/1',
            ...headers,
          },
          // The time limit is for the whole exchange, a resend included.
          signal: AbortSignal.timeout(left),
        },
        (response) => {
          answered = true;
          let kept = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (kept.length < RESPONSE_BODY_LIMIT)
              kept += cutText(chunk, RESPONSE_BODY_LIMIT - kept.length);
          });
          response.on('end', () =>
            finish({
              status: response.statusCode ?? null,
              body: kept ? storableText(kept) : null,
              error: null,
            }),
          );
          response.on('error', (error) =>
            finish({
              status: response.statusCode ?? null,
              body: kept ? storableText(kept) : null,
              error: error.message,
            }),
          );
        },
      );
      request.on('error', (error: Error & { code?: string }) => {
        if (mayResend && !answered && request.reusedSocket && error.code === 'ECONNRESET') {
          settled = true;
          resolve(this.attempt(target, secure, body, headers, started, deadline, false));
          return;
        }
        const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
        finish({
          status: null,
          body: null,
          error: timedOut ? `timed out after ${this.timeoutMs} ms` : error.message,
        });
      });
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
