import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ADMIN_SCHEME, BEARER_SCHEME, SESSION_SCHEME } from '../auth/access.decorators.js';
import { SESSION_COOKIE } from '../auth/sessions/session-cookie.js';
import { CSRF_HEADER } from '../auth/sessions/sessions.service.js';
import { EVENT_TYPES } from '../events/event-types.js';

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
    if (typeof copy.type === 'string') {
      copy.type = [copy.type, 'null'];
      if (Array.isArray(copy.enum) && !copy.enum.includes(null)) copy.enum = [...copy.enum, null];
      return copy;
    }
    // A nullable reference or composition: either the schema or null.
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

const EVENT_RESOURCE_SCHEMA: Record<string, string> = {
  build: 'BuildResponse',
  test_run: 'TestRunResponse',
  result: 'ResultResponse',
  release: 'ReleaseResponse',
  quarantine_entry: 'QuarantineEntryResponse',
};

/** The run's lifecycle events that also carry its comparison and gate (CONTRACT §12). */
const VERDICT_EVENTS = new Set<string>(['testrun.submitted.v1', 'testrun.completed.v1']);
const RUN_VERDICT_SCHEMA = {
  type: 'object',
  required: ['comparison', 'gate'],
  properties: {
    comparison: {
      type: 'object',
      description: 'The run against its default baseline, as of the status change',
      required: ['baseline_run_id', 'summary'],
      properties: {
        baseline_run_id: { type: 'string', format: 'uuid', nullable: true },
        summary: { $ref: '#/components/schemas/ComparisonSummary' },
      },
    },
    gate: {
      type: 'object',
      description: 'Whether the run passes its project’s quality gate',
      required: ['passed'],
      properties: { passed: { type: 'boolean' } },
    },
  },
};

const SIGNATURE_HEADERS = [
  ['X-Service-Event', 'The event type'],
  ['X-Service-Delivery', 'The delivery id, the same on every attempt'],
  [
    'X-Service-Signature',
    '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>`',
  ],
  ['webhook-id', 'Standard Webhooks: the event id'],
  ['webhook-timestamp', 'Standard Webhooks: unix seconds'],
  [
    'webhook-signature',
    'Standard Webhooks: `v1,<base64 HMAC-SHA256>` keyed with the secret’s decoded bytes',
  ],
] as const;

/**
 * The webhook payloads: one envelope schema per event type, and `webhooks` describing the
 * POST each subscriber receives.
 */
function describeWebhooks(document: OpenAPIObject): void {
  const schemas = (document.components ??= {}).schemas ?? (document.components.schemas = {});
  const webhooks: Record<string, unknown> = {};
  for (const { type, description, resource } of EVENT_TYPES) {
    const name = `WebhookEvent_${type.replace(/\./g, '_')}`;
    schemas[name] = {
      type: 'object',
      description,
      required: ['id', 'type', 'created_at', 'organization_id', 'data'],
      properties: {
        id: {
          type: 'string',
          format: 'uuid',
          description: 'Event id, the same on every delivery of it',
        },
        type: { type: 'string', enum: [type] },
        created_at: { type: 'string', format: 'date-time' },
        organization_id: { type: 'string', format: 'uuid' },
        data: VERDICT_EVENTS.has(type)
          ? {
              allOf: [
                { $ref: `#/components/schemas/${EVENT_RESOURCE_SCHEMA[resource]}` },
                RUN_VERDICT_SCHEMA,
              ],
            }
          : { $ref: `#/components/schemas/${EVENT_RESOURCE_SCHEMA[resource]}` },
      },
    };
    webhooks[type] = {
      post: {
        summary: description,
        operationId: `webhook_${type.replace(/\./g, '_')}`,
        // Sent by the service; receivers verify the signature headers instead.
        security: [],
        parameters: SIGNATURE_HEADERS.map(([header, about]) => ({
          name: header,
          in: 'header',
          required: true,
          description: about,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          '200': { description: 'Any 2xx within the time limit is success; 410 stops retries' },
        },
      },
    };
  }
  document.webhooks = webhooks as OpenAPIObject['webhooks'];
}

/** One line per operation, as listed in API references and generated clients. */
const SUMMARIES: Record<string, string> = {
  'GET /api/v1/organizations': 'List your organization',
  'GET /api/v1/projects': 'List projects',
  'GET /api/v1/projects/{id}/testcases': 'List a project’s test cases',
  'GET /api/v1/releases/{id}/progress': 'Release readiness summary',
  'POST /api/v1/builds': 'Create a build',
  'GET /api/v1/builds': 'List builds',
  'GET /api/v1/builds/{id}': 'Get a build',
  'PATCH /api/v1/builds/{id}': 'Update a build or assign it to a release',
  'POST /api/v1/testruns': 'Create a test run',
  'GET /api/v1/testruns': 'List test runs',
  'GET /api/v1/testruns/{id}': 'Get a test run with live counts',
  'PATCH /api/v1/testruns/{id}': 'Submit or complete a test run',
  'POST /api/v1/testruns/{id}/results': 'Submit results to a test run',
  'GET /api/v1/testruns/{id}/results': 'List a test run’s results',
  'POST /api/v1/results/ingest': 'Ingest results (JSON or JUnit XML)',
  'GET /api/v1/webhooks': 'List webhook subscriptions',
  'POST /api/v1/webhooks': 'Create a webhook subscription',
  'DELETE /api/v1/webhooks/{id}': 'Delete a webhook subscription',
  'GET /api/v1/webhooks/{id}/deliveries': 'List deliveries of a subscription',
  'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': 'Redeliver an event',
  'GET /api/v1/events': 'List webhook event types',
  'GET /api/v1/projects/{id}/flaky-tests': 'List a project’s flaky tests',
  'GET /api/v1/projects/{id}/quarantine': 'List a project’s quarantined test cases',
  'GET /api/v1/testcases/{id}/results': 'A test case’s results across runs (its history)',
  'GET /api/v1/testruns/{id}/failures': 'A run’s failures grouped by signature',
  'GET /api/v1/testruns/{id}/comparison': 'Compare a run with its baseline',
  'GET /api/v1/testruns/{id}/gate': 'A run’s quality gate verdict',
  'PUT /api/v1/projects/{id}/quarantine/{testCaseId}': 'Quarantine a test case',
  'DELETE /api/v1/projects/{id}/quarantine/{testCaseId}': 'Take a test case out of quarantine',
  'GET /api/v1/openapi.json': 'This OpenAPI document',
  'GET /api/v1/openapi': 'Discover the OpenAPI document (redirect)',
};

/** The internal API's operations, as the console's client lists them. */
const INTERNAL_SUMMARIES: Record<string, string> = {
  'POST /internal/v1/organizations': 'Create an organization',
  'GET /internal/v1/organizations': 'List organizations',
  'GET /internal/v1/organizations/{id}': 'Get an organization',
  'PATCH /internal/v1/organizations/{id}': 'Change an organization’s name, plan or limit',
  'POST /internal/v1/organizations/{id}/projects': 'Create a project',
  'GET /internal/v1/organizations/{id}/projects': 'List an organization’s projects',
  'POST /internal/v1/projects/{id}/testcases': 'Create a test case',
  'GET /internal/v1/projects/{id}/testcases': 'List a project’s test cases',
  'POST /internal/v1/projects/{id}/releases': 'Create a release',
  'GET /internal/v1/projects/{id}/releases': 'List a project’s releases',
  'PATCH /internal/v1/releases/{id}': 'Change a release’s status',
  'POST /internal/v1/organizations/{id}/builds': 'Create a build from the console',
  'GET /internal/v1/organizations/{id}/build-queue': 'Planned builds in queue order',
  'POST /internal/v1/builds/{id}/assign': 'Assign a build to a release',
  'POST /internal/v1/projects/{id}/testruns': 'Create a test run from the console',
  'PATCH /internal/v1/projects/{id}': 'Change a project’s quality gate',
  'POST /internal/v1/organizations/{id}/api-keys': 'Create an API key (shown once)',
  'GET /internal/v1/organizations/{id}/api-keys': 'List an organization’s API keys',
  'DELETE /internal/v1/api-keys/{id}': 'Delete an API key',
  'GET /internal/v1/limits': 'The per-minute limit every organization has',
  'POST /internal/v1/session': 'Sign in to the console with the operator token',
  'GET /internal/v1/session': 'The console session of the cookie sent',
  'DELETE /internal/v1/session': 'Sign out of the console',
};

function summarize(document: OpenAPIObject, summaries = SUMMARIES): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      const summary = summaries[`${method.toUpperCase()} ${path}`];
      if (operation && summary) operation.summary = summary;
    }
  }
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
