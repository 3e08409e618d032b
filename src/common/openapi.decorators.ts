import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiProperty,
  type ApiPropertyOptions,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './errors/error-envelope.dto.js';
import { PaginationMeta } from './pagination/pagination.js';

const ERROR_DESCRIPTIONS: Record<ApiErrorStatus, string> = {
  400: 'Invalid request (`invalid_request`, `details.field` names the first offending field)',
  404: 'No such resource in your organization (`not_found`)',
  409: 'The resource’s state forbids the change (`conflict`), or the Idempotency-Key is in use',
  413: 'Body or batch too large (`payload_too_large`)',
  415: 'Unsupported content type (`unsupported_media_type`)',
  422: 'Idempotency-Key used for another request (`idempotency_key_reused`)',
};

/** A list response: `{data: [model], pagination}`. */
export function ApiPageResponse(model: Type, description: string) {
  return applyDecorators(
    ApiExtraModels(PaginationMeta, model),
    ApiOkResponse({
      description,
      schema: {
        type: 'object',
        required: ['data', 'pagination'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          pagination: { $ref: getSchemaPath(PaginationMeta) },
        },
      },
    }),
  );
}

/** A status a route can answer with an error of its own (authentication's come with access). */
export type ApiErrorStatus = 400 | 404 | 409 | 413 | 415 | 422;

/** Error responses of a route, each in the error envelope. */
export function ApiErrors(...statuses: ApiErrorStatus[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status], type: ErrorEnvelopeDto }),
    ),
  );
}

/**
 * A response field that may be null. Its type is named because TypeScript reflects `T | null`
 * as Object, which would leave the schema without one.
 */
export function ApiNullable(
  type: StringConstructor | NumberConstructor,
  options?: ApiPropertyOptions,
) {
  return ApiProperty({ type, nullable: true, ...options });
}

/** A resource's id (a UUID) in a response. */
export function ApiId(description?: string) {
  return ApiProperty({ format: 'uuid', ...(description !== undefined && { description }) });
}

/** The id of a resource that may be absent (null), e.g. an optional relation. */
export function ApiNullableId() {
  return ApiProperty({ type: String, format: 'uuid', nullable: true });
}

/** A moment (ISO 8601 date and time) in a response. */
export function ApiTimestamp(description?: string) {
  return ApiProperty({ format: 'date-time', ...(description !== undefined && { description }) });
}

/** A moment that may not have happened (null). */
export function ApiNullableTimestamp(description?: string) {
  return ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    ...(description !== undefined && { description }),
  });
}
