import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';

/** 401: no valid credential (CONTRACT §2), with the challenge the client should answer. */
export const unauthorized = () =>
  new ApiError(
    401,
    ErrorCode.Unauthorized,
    'Send a valid API key as "Authorization: Bearer <key>".',
    {},
    { 'WWW-Authenticate': 'Bearer' },
  );
