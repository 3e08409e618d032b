import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { Settings } from '../config/settings.js';
import { apiKeyFromAuthorization, hashApiKey, secretsEqual } from './api-key-format.js';
import { ApiKeysService } from './api-keys.service.js';
import { unauthorized } from './unauthorized.js';

/** Bodies up to this size are read before the key is checked; larger ones only after. */
export const UNAUTHENTICATED_BODY_BYTES = 16 * 1024;

/**
 * Runs before a request's body is read. A request with more than one `Authorization` header
 * is refused (400): which one counts would depend on the reader. A body over 16 KiB (or of
 * unknown length) is read only when the request's credential is valid right now (the key
 * exists, or the operator token matches), so nobody without one can make the service read
 * and parse 10 MiB; the access guard still makes every other check afterwards.
 */
@Injectable()
export class CredentialsBeforeBody {
  constructor(
    private readonly settings: Settings,
    private readonly apiKeys: ApiKeysService,
  ) {}

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (authorizationHeaders(req) > 1) {
      return next(ApiError.invalidField('Authorization', 'Send exactly one Authorization header.'));
    }
    if (!hasLargeBody(req)) return next();
    this.credentialIsValid(req).then((valid) => {
      if (valid) return next();
      // The body is left unread: the connection closes after the answer.
      res.setHeader('Connection', 'close');
      next(unauthorized());
    }, next);
  };

  private async credentialIsValid(req: Request): Promise<boolean> {
    const header = req.get('authorization');
    if (header === undefined) return false;
    if (req.path.toLowerCase().startsWith('/internal/')) {
      const token = this.settings.adminToken;
      return (
        token !== null &&
        header.startsWith('Bearer ') &&
        secretsEqual(header.slice('Bearer '.length), token)
      );
    }
    const key = apiKeyFromAuthorization(header);
    if (key === null) return false;
    const hash = hashApiKey(key);
    // A key this process authenticated before (and has not seen refused since) may send its
    // body: the guard checks it again right after, so a pipeline's large batches cost no
    // extra look-up. Any other key is looked up first.
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

function hasLargeBody(req: Request): boolean {
  const length = req.get('content-length');
  if (length !== undefined) return Number(length) > UNAUTHENTICATED_BODY_BYTES;
  return req.get('transfer-encoding') !== undefined;
}
