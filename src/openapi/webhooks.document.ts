import type { OpenAPIObject } from '@nestjs/swagger';
import { EVENT_TYPES } from '../events/event-types.js';

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
      description:
        'Whether the run passes its project’s quality gate, as of the status change (on completion, the verdict the run keeps)',
      required: ['passed', 'evaluated_at'],
      properties: {
        passed: { type: 'boolean' },
        evaluated_at: { type: 'string', format: 'date-time' },
      },
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
export function describeWebhooks(document: OpenAPIObject): void {
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
