import { readFileSync } from 'node:fs';
import { createTenant } from './factories/organizations.js';
import { HTTPS, startApp, withKey, type TestApp } from './support/app.js';

interface Operation {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<
    string,
    { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }
  >;
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let key: string;
  let document: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    webhooks: Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await startApp();
    key = (await createTenant(t, ['builds:read'])).key;
    document = (await t.http.get('/api/v1/openapi.json').set(withKey(key)).expect(200)).body;
  });
  afterAll(() => t.close());

  it('matches the checked-in openapi.json (run `npm run openapi` after changing the API)', () => {
    expect(document).toEqual(JSON.parse(readFileSync('openapi.json', 'utf8')));
  });

  it('redirects GET /openapi to /openapi.json with 308 and no authentication', async () => {
    const res = await t.http.get('/api/v1/openapi').set(HTTPS);
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe('/api/v1/openapi.json');
  });

  it('needs a valid key for the document itself', async () => {
    expect((await t.http.get('/api/v1/openapi.json').set(HTTPS)).status).toBe(401);
  });

  it('uses OpenAPI 3.1 schemas: null in `type`, no 3.0 `nullable` or `x-` stand-ins', () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain('"nullable"');
    expect(text).not.toContain('"x-');
    const { schemas } = (
      document as unknown as {
        components: { schemas: Record<string, { properties: Record<string, { type?: unknown }> }> };
      }
    ).components;
    expect(schemas.ProjectResponse.properties.description.type).toEqual(['string', 'null']);
  });

  it('describes the public endpoints and none of the internal ones', () => {
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/v1/organizations',
        'GET /api/v1/projects',
        'GET /api/v1/projects/{id}/testcases',
        'POST /api/v1/builds',
        'GET /api/v1/builds',
        'GET /api/v1/builds/{id}',
        'PATCH /api/v1/builds/{id}',
        'GET /api/v1/openapi.json',
        'GET /api/v1/openapi',
        'POST /api/v1/testruns',
        'PATCH /api/v1/testruns/{id}',
        'POST /api/v1/testruns/{id}/results',
        'GET /api/v1/testruns/{id}/results',
        'POST /api/v1/results/ingest',
        'GET /api/v1/releases/{id}/progress',
        'GET /api/v1/events',
        'GET /api/v1/webhooks',
        'POST /api/v1/webhooks',
        'DELETE /api/v1/webhooks/{id}',
        'GET /api/v1/webhooks/{id}/deliveries',
        'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      ]),
    );
    expect(operations.filter((op) => op.includes('/internal/'))).toEqual([]);
  });

  it('gives every operation the bearer scheme, its scopes, error responses and rate-limit headers', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (path === '/api/v1/openapi') {
          expect(operation.security).toEqual([]);
          expect(Object.keys(operation.responses)).toEqual(['308']);
          continue;
        }
        // An attachment's upload and download links carry their own signature (CONTRACT §15).
        if (/^\/api\/v1\/attachments\/\{id\}\/(upload|download)$/.test(path)) {
          expect({ where, security: operation.security }).toEqual({ where, security: [] });
          expect(operation.responses['401']).toBeDefined();
          continue;
        }
        // One requirement per accepted scope (any one suffices), or one without scopes.
        expect(operation.security?.length).toBeGreaterThan(0);
        for (const requirement of operation.security ?? [])
          expect({ where, schemes: Object.keys(requirement) }).toEqual({
            where,
            schemes: ['bearer'],
          });
        for (const status of ['401', '403', '429'])
          expect(operation.responses[status]).toBeDefined();
        // An attachment's content is a redirect to its signed download link.
        const success = Object.entries(operation.responses).find(([status]) =>
          path === '/api/v1/attachments/{id}/content' ? status === '302' : status.startsWith('2'),
        );
        expect(success).toBeDefined();
        if (success?.[0] !== '204' && success?.[0] !== '302')
          expect(success?.[1].content?.['application/json']?.schema).toBeDefined();
        expect(Object.keys(success?.[1].headers ?? {})).toEqual(
          expect.arrayContaining([
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            'X-RateLimit-Reset',
          ]),
        );
        if (method === 'post') {
          expect(operation.parameters?.map((p) => p.name)).toContain('Idempotency-Key');
        }
      }
    }
    expect(document.paths['/api/v1/builds'].post.security).toEqual([{ bearer: ['builds:create'] }]);
    expect(document.paths['/api/v1/builds/{id}'].patch.security).toEqual([
      { bearer: ['builds:update'] },
    ]);
    expect(document.paths['/api/v1/testruns/{id}/results'].get.security).toEqual([
      { bearer: ['results:read'] },
      { bearer: ['testruns:read'] },
    ]);
    expect(document.paths['/api/v1/organizations'].get.security).toEqual([{ bearer: [] }]);
  });

  it('describes the webhook payloads', () => {
    expect(Object.keys(document.webhooks)).toEqual([
      'build.created.v1',
      'testrun.created.v1',
      'testrun.submitted.v1',
      'testrun.completed.v1',
      'testrun.reopened.v1',
      'testcase.failed.v1',
      'release.released.v1',
      'testcase.quarantined.v1',
      'testcase.unquarantined.v1',
    ]);
  });

  it('documents both responses of POST /builds and the list envelope', () => {
    const create = document.paths['/api/v1/builds'].post.responses;
    expect(Object.keys(create)).toEqual(expect.arrayContaining(['201', '202', '400']));
    const list = document.paths['/api/v1/builds'].get.responses['200'].content?.['application/json']
      ?.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(list.properties)).toEqual(['data', 'pagination']);
  });
});
