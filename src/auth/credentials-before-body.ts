import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { isCompressed } from '../common/http/body-parsing.middleware.js';
import { Settings } from '../config/settings.js';
import { apiKeyFromAuthorization, hashApiKey } from './api-key-format.js';
import { ApiKeysService } from './api-keys.service.js';
import { OperatorTokenCheck } from './sessions/operator-token-check.js';
import { SessionsService } from './sessions/sessions.service.js';
import { unauthorized } from './unauthorized.js';

/** Bodies up to this size are read on a route open to anyone; larger ones need a credential. */
export const UNAUTHENTICATED_BODY_BYTES = 16 * 1024;

/**
 * What is checked of a request's credential before its body is read, beside the access guard's
 * admission. A request with more than one `Authorization` header is refused (400) before
 * anything else (`middleware`): which one counts would depend on the reader. On a route open
 * to anyone (`@Public()`), a body over 16 KiB (of unknown length, or compressed) is read only
 * when the request carries a valid credential (the key exists, the operator token matches, or
 * a console session is live: `admitPublicBody`), so nobody without one can make the service
 * read and parse 10 MiB. Every other route's body is read only once the guard admitted it.
 */
@Injectable()
export class CredentialsBeforeBody {
  constructor(
    private readonly settings: Settings,
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
    private readonly operatorToken: OperatorTokenCheck,
  ) {}

  readonly middleware = (req: Request, _res: Response, next: NextFunction): void => {
    if (authorizationHeaders(req) <= 1) return next();
    next(ApiError.invalidField('Authorization', 'Send exactly one Authorization header.'));
  };

  /** 401 (404 for the internal API when it is off) for a large body without a credential. */
  async admitPublicBody(req: Request): Promise<void> {
    if (!hasLargeBody(req)) return;
    // Without an operator token the internal API does not exist (CONTRACT §10), whatever the body.
    if (isInternal(req) && this.settings.adminToken === null) throw ApiError.notFound();
    if (!(await this.credentialIsValid(req))) throw unauthorized();
  }

  private async credentialIsValid(req: Request): Promise<boolean> {
    const header = req.get('authorization');
    if (isInternal(req)) {
      const token = this.settings.adminToken;
      if (token === null) return false;
      // The console's session counts as the token does (its CSRF check is the guard's).
      if (header === undefined) return (await this.sessions.sessionOf(req)) !== null;
      // A wrong token counts against the address as the guard's would (429 past the allowance).
      return this.operatorToken.bearerMatches(req, header);
    }
    const key = apiKeyFromAuthorization(header);
    if (key === null) return false;
    const hash = hashApiKey(key);
    // A key this process authenticated before (and has not seen refused since) needs no
    // look-up; any other key is looked up first.
    if (this.apiKeys.knownKey(hash)) return true;
    return (await this.apiKeys.authenticate(hash)).key !== null;
  }
}

function authorizationHeaders(req: Request): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() === 'authorization') count++;
  }
  return count;
}

function isInternal(req: Request): boolean {
  return req.path.toLowerCase().startsWith('/internal/');
}

/**
 * Whether the body may be large once read: over 16 KiB as sent, of unknown length (chunked),
 * or compressed (the body parser inflates it, so 10 KB of gzip can become 10 MiB).
 */
function hasLargeBody(req: Request): boolean {
  if (isCompressed(req)) return true;
  const length = req.get('content-length');
  if (length !== undefined) return Number(length) > UNAUTHENTICATED_BODY_BYTES;
  return req.get('transfer-encoding') !== undefined;
}
