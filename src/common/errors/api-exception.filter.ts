import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, ErrorEnvelope } from './api-error.js';
import { ErrorCode, errorCodeForStatus } from './error-codes.js';
import { isDependencyUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './unavailable.js';

/** Errors raised by Express's body parser (`type` and `status` are set by body-parser). */
interface BodyParserError extends Error {
  type: string;
  status: number;
  limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return error instanceof Error && typeof (error as Partial<BodyParserError>).type === 'string';
}

/**
 * The single place that turns anything thrown into the contract's error envelope. Client
 * mistakes keep their status; anything unexpected is logged with the request id and answered
 * as an opaque 500.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const request = host.switchToHttp().getRequest<Request>();
    const error = this.toApiError(exception, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    sendEnvelope(response, error.getStatus(), error.toEnvelope());
  }

  private toApiError(exception: unknown, request: Request): ApiError {
    if (exception instanceof ApiError) return exception;
    // Nest wraps Express's own errors (body parser, bad percent-encoding) in an HttpException.
    const cause = exception instanceof HttpException ? exception.cause : exception;
    // Our own refusal from inside the body parser (a body nested too deep).
    if (cause instanceof ApiError) return cause;
    if (isBodyParserError(cause)) return bodyParserError(cause);
    if (cause instanceof URIError) return ApiError.notFound();
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404 || status === 405) return ApiError.notFound();
      if (status < 500) return new ApiError(status, errorCodeForStatus(status), exception.message);
    }
    const requestId = String(request.id ?? '');
    if (isDependencyUnavailable(exception)) {
      this.logger.warn(
        { requestId, method: request.method, path: request.path, reason: reasonOf(exception) },
        'Database unavailable',
      );
      return new ApiError(
        503,
        ErrorCode.ServiceUnavailable,
        'The service cannot reach its database right now; retry shortly.',
        {},
        { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
      );
    }
    this.logger.error(
      { err: exception, requestId, method: request.method, path: request.path },
      'Unhandled error',
    );
    return new ApiError(500, ErrorCode.InternalError, 'Something went wrong on our side.', {
      request_id: requestId,
    });
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function bodyParserError(error: BodyParserError): ApiError {
  switch (error.type) {
    case 'entity.too.large':
      return new ApiError(413, ErrorCode.PayloadTooLarge, 'The request body is too large.', {
        limit: error.limit,
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, ErrorCode.UnsupportedMediaType, error.message);
    case 'entity.parse.failed':
      return ApiError.invalidField('body', `The request body is not valid JSON: ${error.message}`);
    default:
      return ApiError.invalidField('body', 'The request body could not be read.');
  }
}

export function sendEnvelope(response: Response, status: number, envelope: ErrorEnvelope): void {
  // A request refused before its body arrived (unread, or still coming) closes the connection
  // after the answer, rather than reading the rest to its end: a chunked body can be endless.
  if (!response.req.complete) response.setHeader('Connection', 'close');
  // Set explicitly: a handler may already have chosen another type (e.g. /metrics).
  response.status(status).type('application/json; charset=utf-8').json(envelope);
}
