import { HttpException } from '@nestjs/common';
import { ErrorCode } from './error-codes.js';

export type ErrorDetails = Record<string, unknown>;

export interface ErrorEnvelope {
  error: ErrorCode;
  message: string;
  details: ErrorDetails;
}

export interface FieldError {
  field: string;
  message: string;
}

/** An error the client is meant to see, already in the contract's envelope. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    /** Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }

  /**
   * Set on refusals raised before the handler ran (validation pipes): such a request changed
   * nothing and left nothing to replay, so an Idempotency-Key used with it stays free.
   */
  beforeHandler = false;

  refusedBeforeHandler(): this {
    this.beforeHandler = true;
    return this;
  }

  toEnvelope(): ErrorEnvelope {
    return { error: this.code, message: this.message, details: this.details };
  }

  static invalid(errors: FieldError[]): ApiError {
    const [first] = errors;
    return new ApiError(400, ErrorCode.InvalidRequest, first.message, {
      field: first.field,
      errors,
    });
  }

  static invalidField(field: string, message: string): ApiError {
    return ApiError.invalid([{ field, message }]);
  }

  /**
   * An id given in a body or query that names no row of the caller's organization: unknown and
   * foreign ids alike, so that the answer never tells another organization's ids (CONTRACT §5b).
   */
  static unknownReference(field: string): ApiError {
    return ApiError.invalidField(field, `${field} does not name a resource of this organization`);
  }

  static notFound(resource?: string): ApiError {
    const message = resource ? `No such ${resource}.` : 'Not found.';
    return new ApiError(404, ErrorCode.NotFound, message, resource ? { resource } : {});
  }

  static conflict(reason: string, message: string): ApiError {
    return new ApiError(409, ErrorCode.Conflict, message, { reason });
  }
}
