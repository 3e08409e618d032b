import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { Settings } from '../../config/settings.js';
import { bearsOperatorToken, secretsEqual } from '../api-key-format.js';
import { SIGN_IN_WINDOW_MS, SignInThrottle } from './sign-in-throttle.js';

/**
 * Every comparison with the operator token, through every door (the console's sign-in,
 * `Authorization: Bearer` on `/internal/v1`, the check before a large body is read), in one
 * per-address throttle: each wrong token is counted against the client's address (`req.ip`, so
 * the client behind a trusted proxy) and logged, and an address that has used up its failures
 * is refused with 429 even with the right token until its window ends.
 */
@Injectable()
export class OperatorTokenCheck {
  private readonly throttle = new SignInThrottle();
  private readonly logger = new Logger(OperatorTokenCheck.name);

  constructor(private readonly settings: Settings) {}

  /** Whether `given` is the operator token; 429 while the request's address is throttled. */
  matches(req: Request, given: string): boolean {
    const token = this.settings.adminToken;
    return this.counted(req, () => token !== null && secretsEqual(given, token));
  }

  /** Whether `header` is exactly `Bearer <operator token>`; counted as `matches` counts. */
  bearerMatches(req: Request, header: string): boolean {
    const token = this.settings.adminToken;
    return this.counted(req, () => token !== null && bearsOperatorToken(header, token));
  }

  private counted(req: Request, compare: () => boolean): boolean {
    const client = req.ip ?? '';
    this.throttle.check(client);
    if (compare()) {
      this.throttle.succeeded(client);
      return true;
    }
    const inAll = this.throttle.failed(client);
    this.logger.warn(`Wrong operator token from ${client} (${req.method} ${req.path})`);
    if (inAll !== null) {
      this.logger.warn(
        `${inAll} wrong operator tokens in ${SIGN_IN_WINDOW_MS / 60_000} minutes from all addresses: someone may be guessing it`,
      );
    }
    return false;
  }
}
