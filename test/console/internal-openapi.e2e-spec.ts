import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildInternalOpenApiDocument } from '../../src/openapi/openapi.document.js';
import { startApp, type TestApp } from '../support/app.js';

interface Operation {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string }>;
  summary?: string;
}

describe('internal OpenAPI document', () => {
  let t: TestApp;
  let document: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await startApp();
    document = buildInternalOpenApiDocument(t.app) as unknown as typeof document;
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        name: `${method.toUpperCase()} ${path}`,
        method,
        op,
      })),
    );

  it('matches the checked-in internal-openapi.json (run `npm run openapi` after changing the internal API)', () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(
      JSON.parse(readFileSync('internal-openapi.json', 'utf8')),
    );
  });

  it('is what the console’s typed client was generated from', async () => {
    const generated = astToString(
      await openapiTS(JSON.parse(readFileSync('internal-openapi.json', 'utf8')), {
        defaultNonNullable: false,
      }),
    );
    const checkedIn = readFileSync('packages/console/src/schema.d.ts', 'utf8');
    const body = (text: string) => text.slice(text.indexOf('export interface paths'));
    expect(body(checkedIn)).toBe(body(generated));
  });

  it('describes the internal API only, each operation with a summary', () => {
    const names = operations().map((o) => o.name);
    expect(names).toEqual(
      expect.arrayContaining(['GET /internal/v1/organizations', 'POST /internal/v1/session']),
    );
    expect(names.filter((name) => !name.includes(' /internal/v1/'))).toEqual([]);
    expect(
      operations()
        .filter((o) => !o.op.summary)
        .map((o) => o.name),
    ).toEqual([]);
  });

  it('takes the operator token or the session on every operation but sign-in, and the CSRF header on changes', () => {
    const signIn = [
      'POST /internal/v1/session',
      'GET /internal/v1/session/options',
      'GET /internal/v1/session/oidc',
      'GET /internal/v1/session/oidc/callback',
    ];
    for (const { name, method, op } of operations()) {
      if (signIn.includes(name)) {
        expect(op.security).toEqual([]);
        continue;
      }
      expect({ name, security: op.security }).toEqual({
        name,
        security: [{ admin: [] }, { session: [] }],
      });
      const csrf = op.parameters?.some((p) => p.in === 'header' && p.name === 'X-CSRF-Token');
      expect({ name, csrf }).toEqual({ name, csrf: method !== 'get' });
    }
  });
});
