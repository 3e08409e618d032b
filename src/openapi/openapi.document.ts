import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ADMIN_SCHEME, BEARER_SCHEME, SESSION_SCHEME } from '../routes/access.decorators.js';
import { SESSION_COOKIE } from '../auth/sessions/session-cookie.js';
import { CSRF_HEADER } from '../auth/sessions/sessions.service.js';
import { describeWebhooks } from './webhooks.document.js';
import { INTERNAL_SUMMARIES, summarize } from './operation-summaries.js';

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
    .addServer('/', 'This service (paths include /api/v1)')
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
  summarize(document);
  describeWebhooks(document);
  dropUnusedSchemas(document);
  return toOpenApi31(document);
}

/**
 * The internal API's document (`internal-openapi.json`), which the console's typed client is
 * generated from: only the `/internal/v1` paths, with both ways an operator is authenticated.
 */
export function buildInternalOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Test management internal API')
    .setDescription(
      'The console’s API: organizations, keys, projects, releases, builds and runs, managed ' +
        'through the same services as the public API. Authenticated with ' +
        '`Authorization: Bearer <ADMIN_TOKEN>`, or with the console’s session cookie, when a ' +
        `change (POST, PUT, PATCH, DELETE) also carries the session’s \`${CSRF_HEADER}\`.`,
    )
    .setVersion('1.0.0')
    .addServer('/', 'This service (paths include /internal/v1)')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Operator token (ADMIN_TOKEN)' },
      ADMIN_SCHEME,
    )
    .addCookieAuth(
      SESSION_COOKIE,
      {
        type: 'apiKey',
        in: 'cookie',
        name: SESSION_COOKIE,
        description: 'Console session, set by `POST /internal/v1/session`',
      },
      SESSION_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => INTERNAL_PATH.test(path)),
  );
  describeCsrfHeader(document);
  summarize(document, INTERNAL_SUMMARIES);
  dropUnusedSchemas(document);
  return toOpenApi31(document);
}

const CSRF_TOKEN: ParameterObject = {
  name: CSRF_HEADER,
  in: 'header',
  required: false,
  description:
    'The console session’s `csrf_token`: required on a change made with the session cookie, ' +
    'unused with the operator token',
  schema: { type: 'string' },
};

/** The CSRF header on every authenticated change; sign-in says it needs no credential. */
function describeCsrfHeader(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      if (!operation.security?.length) operation.security = [];
      else if (method !== 'get') {
        operation.parameters = [...(operation.parameters ?? []), CSRF_TOKEN];
      }
    }
  }
}

/**
 * @nestjs/swagger describes schemas the OpenAPI 3.0 way; the document is published as 3.1
 * (JSON Schema 2020-12): `nullable: true` becomes a `null` member of `type` (and of `enum`).
 */
function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  document.openapi = '3.1.0';
  // The service is not open source (package.json: UNLICENSED): an SPDX `LicenseRef-` names a
  // license outside SPDX's list.
  document.info.license = {
    name: 'Proprietary',
    identifier: 'LicenseRef-Proprietary',
  } as NonNullable<OpenAPIObject['info']['license']>;
  const convert = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(convert);
    if (node === null || typeof node !== 'object') return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      // `example` and `enum` hold values, not schemas.
      copy[key] =
        key === 'example' || key === 'enum' || key === 'examples' ? value : convert(value);
    }
    if (copy.nullable === undefined) return copy;
    const nullable = copy.nullable === true;
    delete copy.nullable;
    if (!nullable) return copy;
    // A nullable reference comes as `type: object` beside `allOf`; it is a composition.
    if (typeof copy.type === 'string' && copy.allOf === undefined) {
      copy.type = [copy.type, 'null'];
      if (Array.isArray(copy.enum) && !copy.enum.includes(null)) copy.enum = [...copy.enum, null];
      return copy;
    }
    // A nullable reference or composition: either the schema or null.
    if (copy.allOf !== undefined) delete copy.type;
    return { anyOf: [copy, { type: 'null' }] };
  };
  document.paths = convert(document.paths) as OpenAPIObject['paths'];
  document.webhooks = convert(document.webhooks) as OpenAPIObject['webhooks'];
  if (document.components?.schemas) {
    document.components.schemas = convert(document.components.schemas) as NonNullable<
      OpenAPIObject['components']
    >['schemas'];
  }
  return document;
}

/** Schemas only the internal API uses are dropped with its paths. */
function dropUnusedSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else {
        visit(value);
      }
    }
  };
  visit(document.paths);
  visit(document.webhooks);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
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
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      if (method === 'post') {
        operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY];
      }
      // Public operations (the discovery redirect) say so explicitly.
      if (!operation.security?.length) {
        operation.security = [];
        continue;
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '401' || !response || '$ref' in response) continue;
        response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
      }
    }
  }
}
