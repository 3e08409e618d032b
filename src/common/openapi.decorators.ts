import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './errors/error-envelope.dto.js';
import { PaginationMeta } from './pagination/pagination.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
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

/** Error responses of a route, each in the error envelope. */
export function ApiErrors(...statuses: Array<keyof typeof ERROR_DESCRIPTIONS>) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status], type: ErrorEnvelopeDto }),
    ),
  );
}
