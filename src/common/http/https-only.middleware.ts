import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { sendEnvelope } from '../errors/api-exception.filter.js';

const HSTS = 'max-age=31536000; includeSubDomains';
/** The API surfaces that must never be used over plain HTTP; probes and metrics may be. */
const SECURE_ONLY_PREFIXES = ['/api/', '/internal/'];

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
  if (SECURE_ONLY_PREFIXES.some((prefix) => req.path.startsWith(prefix))) {
    const error = new ApiError(403, ErrorCode.HttpsRequired, 'This API is served over HTTPS only.');
    return sendEnvelope(res, error.getStatus(), error.toEnvelope());
  }
  next();
}
