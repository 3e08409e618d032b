import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { sendEnvelope } from '../errors/api-exception.filter.js';

const HSTS = 'max-age=31536000; includeSubDomains';
/** The only paths that answer over plain HTTP: the cluster's probes and Prometheus. */
const PLAIN_HTTP_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Whether a path is one of the plain-HTTP ones, as Express would route it: case-insensitively,
 * with or without a trailing slash. Everything else needs HTTPS, so no spelling of an API path
 * (`/API/v1`, `/api//v1`, `/%2Fapi`) can reach a handler over plain HTTP: the list names what
 * is allowed, never what is refused.
 */
function answersPlainHttp(path: string): boolean {
  const lower = path.toLowerCase();
  return PLAIN_HTTP_PATHS.has(lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower);
}

/**
 * `req.secure` is Express's answer: a TLS socket, or `X-Forwarded-Proto: https` from a peer
 * that the `trust proxy` setting (TRUST_PROXY) trusts. Runs before authentication, so a plain
 * HTTP request is neither authenticated nor counted against any limit.
 */
export function httpsOnly(req: Request, res: Response, next: NextFunction): void {
  if (req.secure) {
    res.setHeader('Strict-Transport-Security', HSTS);
    return next();
  }
  if (answersPlainHttp(req.path)) return next();
  const error = new ApiError(403, ErrorCode.HttpsRequired, 'This API is served over HTTPS only.');
  sendEnvelope(res, error.getStatus(), error.toEnvelope());
}
