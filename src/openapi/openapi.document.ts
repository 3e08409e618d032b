import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ADMIN_SCHEME, BEARER_SCHEME } from '../auth/access.decorators.js';

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type ParameterObject = NonNullable<Operation['parameters']>[number];
type ResponseObject = Exclude<NonNullable<Operation['responses'][string]>, { $ref: string }>;
type HeaderObject = NonNullable<ResponseObject['headers']>[string];

const INTERNAL_PATH = /^\/internal\//;

/**
 * The public API's OpenAPI document, generated from the controllers and DTOs. The internal
 * UI's routes are left out: they are not part of the published interface.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Test management integration API')
    .setDescription(
      'Register builds, create test runs, submit automated results and subscribe to webhooks. ' +
        'Every request but `GET /api/v1/openapi` carries `Authorization: Bearer svc_live_…`.',
    )
    .setVersion('1.1.0')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'API key: `svc_live_` + hex' },
      BEARER_SCHEME,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Operator token (internal API)' },
      ADMIN_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => !INTERNAL_PATH.test(path)),
  );
  delete document.components?.securitySchemes?.[ADMIN_SCHEME];
  describeCrossCuttingHeaders(document);
  return document;
}

const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': { description: 'Monthly call limit', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Calls left in the current billing period',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Unix time (seconds) of the monthly reset',
    schema: { type: 'integer' },
  },
};

const IDEMPOTENCY_KEY: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry: the same key with the same request within 24 h replays the ' +
    'first response (with `Idempotent-Replayed: true`).',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/**
 * Headers every operation shares are added here, once, rather than on each route: the
 * rate-limit headers on every response of an authenticated operation, `Idempotency-Key` on
 * every POST.
 */
function describeCrossCuttingHeaders(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      if (method === 'post') {
        operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY];
      }
      if (!operation.security?.length) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '401' || !response || '$ref' in response) continue;
        response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
      }
    }
  }
}
