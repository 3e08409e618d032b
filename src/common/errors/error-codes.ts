/** Every machine-readable error code the API answers with (CONTRACT §2). */
export const ErrorCode = {
  InvalidRequest: 'invalid_request',
  Unauthorized: 'unauthorized',
  InsufficientScope: 'insufficient_scope',
  PlanRequired: 'plan_required',
  HttpsRequired: 'https_required',
  /** A console-session call that changes something without its CSRF token. */
  CsrfTokenInvalid: 'csrf_token_invalid',
  PlanLimitReached: 'plan_limit_reached',
  NotFound: 'not_found',
  Conflict: 'conflict',
  IdempotencyKeyInUse: 'idempotency_key_in_use',
  IdempotencyKeyReused: 'idempotency_key_reused',
  PayloadTooLarge: 'payload_too_large',
  UnsupportedMediaType: 'unsupported_media_type',
  RateLimitExceeded: 'rate_limit_exceeded',
  InternalError: 'internal_error',
  ServiceUnavailable: 'service_unavailable',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The code a bare HTTP status maps to when nothing more specific was thrown. */
export function errorCodeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return ErrorCode.Unauthorized;
    case 404:
    case 405:
      return ErrorCode.NotFound;
    case 409:
      return ErrorCode.Conflict;
    case 413:
      return ErrorCode.PayloadTooLarge;
    case 415:
      return ErrorCode.UnsupportedMediaType;
    case 429:
      return ErrorCode.RateLimitExceeded;
    case 503:
      return ErrorCode.ServiceUnavailable;
    default:
      return status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidRequest;
  }
}
