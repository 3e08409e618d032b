import fc from 'fast-check';

/**
 * fast-check arbitraries derived from an OpenAPI 3 document: requests that are valid by the
 * document's schemas, and mutations of them (wrong types, missing and extra fields, huge and
 * negative numbers, hostile strings, malformed ids, deep nesting, wrong content types). Nothing
 * here knows a route: every body, query and path comes from the document, and real resource
 * ids come from the pools a test passes in.
 */

export type Schema = {
  $ref?: string;
  /** OpenAPI 3.1: a nullable field's type is `[T, "null"]`; `resolve` gives T alone. */
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  description?: string;
  example?: unknown;
  default?: unknown;
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * A nullable schema (OpenAPI 3.1: `type: [T, "null"]`, `null` in its enum) as its non-null
 * part: valid values are generated from T, as they were from 3.0's `nullable` schemas.
 */
export function withoutNull(schema: Schema): Schema {
  if (!Array.isArray(schema.type)) return schema;
  const types = schema.type.filter((type) => type !== 'null');
  return {
    ...schema,
    type: types.length === 1 ? types[0] : types,
    ...(schema.enum ? { enum: schema.enum.filter((value) => value !== null) } : {}),
  };
}

/** Real ids the generated requests use part of the time, by resource kind. */
export interface IdPools {
  /** Ids of the fuzzing tenant, by kind (`project`, `build`, `release`, `run`, ...). */
  own: Record<string, string[]>;
  /** Ids of another organization: must behave as unknown (404 in a path, 400 in a body). */
  foreign: string[];
  /** URLs a webhook may point at (an allowed host), so some subscriptions are created. */
  urls: string[];
}

/** A body as it goes on the wire; built when sent, so a 10 MiB body is not held per run. */
export type Body =
  | { kind: 'json'; value: unknown; contentType?: string }
  | { kind: 'text'; text: string; contentType?: string; encoding?: string }
  | { kind: 'bytes'; hex: string; contentType?: string }
  | { kind: 'deep'; depth: number; open: string; close: string; contentType?: string }
  | { kind: 'huge'; bytes: number; contentType?: string };

export interface FuzzRequest {
  /** The documented operation this request was derived from, e.g. `GET /api/v1/builds/{id}`. */
  operation: string;
  method: string;
  /** Path with its query string, already percent-encoded. */
  url: string;
  headers: Record<string, string>;
  body?: Body;
  /** What was mutated (`valid` when nothing was), for the summary. */
  mutation: string;
  /** Whether the method is the operation's own (else the route must answer 404). */
  documentedMethod: boolean;
}

/** A JSON token that JSON.stringify cannot produce (1e999, -0, 2^63); spliced in when sent. */
const RAW_PREFIX = '\u0001raw:';
const raw = (token: string) => `${RAW_PREFIX}${token}\u0001`;

/** Serializes a JSON body, splicing in the raw tokens. */
export function serializeJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:([^"\\]*)\\u0001"/g, '$1');
}

/** The bytes and content type of a body. */
export function materialize(body: Body): { payload: Buffer; contentType?: string } {
  switch (body.kind) {
    case 'json':
      return { payload: Buffer.from(serializeJson(body.value)), contentType: body.contentType };
    case 'text':
      return {
        payload: Buffer.from(body.text, (body.encoding ?? 'utf8') as BufferEncoding),
        contentType: body.contentType,
      };
    case 'bytes':
      return { payload: Buffer.from(body.hex, 'hex'), contentType: body.contentType };
    case 'deep':
      return {
        payload: Buffer.from(body.open.repeat(body.depth) + body.close.repeat(body.depth)),
        contentType: body.contentType,
      };
    case 'huge':
      return {
        payload: Buffer.from(`{"name":"${'a'.repeat(body.bytes)}"}`),
        contentType: body.contentType,
      };
  }
}

/**
 * Percent-encodes text for a URL. Unlike encodeURIComponent it does not throw on a lone
 * surrogate: it writes the surrogate's (invalid) UTF-8 bytes, which is what a careless
 * client would send.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isHigh = code >= 0xd800 && code <= 0xdbff;
    const next = text.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [
        '%' + (0xe0 | (code >> 12)).toString(16),
        '%' + (0x80 | ((code >> 6) & 0x3f)).toString(16),
        '%' + (0x80 | (code & 0x3f)).toString(16),
      ]
        .join('')
        .toUpperCase();
    } else {
      out += encodeURIComponent(text[i]);
    }
  }
  return out;
}

/** Nested arrays or objects `depth` levels deep, as a value inside an otherwise valid body. */
function nested(depth: number, asObject: boolean): unknown {
  let value: unknown = asObject ? { a: 1 } : [1];
  for (let i = 1; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
}

// ---------------------------------------------------------------------------------------
// Hostile values

const LONG = [256, 1001, 2049, 65_536, 70_000];

/** Strings that break naive code: NUL, lone surrogates, very long, odd Unicode, injections. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '\uDBFF\uDBFF',
    '\uD83D\uDE00',
    '𝕌𝕟𝕚𝕔𝕠𝕕𝕖',
    'Ω≈ç√∫˜µ≤≥÷',
    '\u202Eevil',
    '\u200B\u200C\u200D\uFEFF',
    'e\u0301\u0301\u0301',
    '\r\n\t\v\f\b',
    "' OR 1=1 --",
    '"; DROP TABLE build; --',
    '%00',
    '%s%n%x',
    '${jndi:ldap://x}',
    '<script>alert(1)</script>',
    '../../../../etc/passwd',
    '\\',
    '__proto__',
    'null',
    'NaN',
    'true',
    '0',
    '-1',
    '1e309',
  ),
  fc
    .constantFrom(...LONG)
    .chain((n) => fc.constantFrom('a'.repeat(n), '€'.repeat(n), '😀'.repeat(n / 2))),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Numbers at and beyond every boundary, including tokens JSON.stringify cannot write. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    -1,
    -0.5,
    0.5,
    1.5,
    -2147483649,
    2147483648,
    4294967296,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1e21,
    1e308,
    -1e308,
    5e-324,
    raw('9223372036854775808'),
    raw('-9223372036854775809'),
    raw('1e999'),
    raw('-1e999'),
    raw('-0'),
    raw('1E+2'),
    raw('123456789012345678901234567890'),
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const uuidArb = fc.uuid();

/** Ids that are not ids: wrong shape, wrong case, near misses, encodings. */
export const malformedUuid: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    'abc',
    '1',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '00000000-0000-0000-0000-00000000000g',
    '{00000000-0000-4000-8000-000000000000}',
    '00000000000040008000000000000000',
    '00000000-0000-4000-8000-000000000000\u0000',
    '0000000０-0000-4000-8000-000000000000',
    'null',
  ),
  uuidArb.map((u) => u.toUpperCase()),
  uuidArb.map((u) => `${u}x`),
  uuidArb.map((u) => ` ${u}`),
  uuidArb.map((u) => u.slice(0, 35)),
  uuidArb.map((u) => u.replace(/-/g, '')),
);

/**
 * Timestamps at the edges the contract names (years 1900–9999 after conversion to UTC), with
 * offsets that push a date over an edge, without a zone, impossible dates, other shapes.
 */
export const hostileDate: fc.Arbitrary<unknown> = fc.constantFrom(
  '0000-01-01T00:00:00Z',
  '0000-01-01T00:00:00.000+14:00',
  '0001-01-01T00:00:00.000Z',
  '1899-12-31T23:59:59.999Z',
  '1900-01-01T00:30:00+01:00',
  '1899-12-31T23:30:00-01:00',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.999-14:00',
  '9999-12-31T20:00:00-05:00',
  '10000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '+275761-01-01T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '-271821-04-20T00:00:00.000Z',
  '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T23:59:60Z',
  '2026-01-01T00:00:00',
  '2026-01-01',
  '2026-01-01T00:00:00+25:00',
  '2026-01-01T00:00:00.1234567890Z',
  '2026-01-01 00:00:00Z',
  '2026-W01',
  'yesterday',
  '1700000000',
  '',
);

/** Any JSON value of another type than expected. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  hostileNumber,
  hostileString,
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom([], {}, [1, 'a', null], { a: 1 }, [{}]),
  fc.constantFrom(100, 2000).chain((depth) => fc.constant(nested(depth, depth === 100))),
);

// ---------------------------------------------------------------------------------------
// Schema → arbitrary

export class SchemaArbitraries {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly ids: IdPools,
  ) {}

  resolve(schema: Schema): Schema {
    let current = schema;
    while (current.$ref) {
      const name = current.$ref.replace('#/components/schemas/', '');
      current = this.document.components.schemas[name];
      if (!current) throw new Error(`unresolvable $ref ${schema.$ref}`);
    }
    return withoutNull(current);
  }

  /** A uuid for a field or parameter: mostly a real id of the kind its name says. */
  uuid(name: string): fc.Arbitrary<string> {
    const kind = kindOf(name);
    const own = (kind && this.ids.own[kind]) || [];
    const everyOwn = Object.values(this.ids.own).flat();
    const choices: Array<fc.WeightedArbitrary<string>> = [{ arbitrary: uuidArb, weight: 1 }];
    if (own.length > 0) choices.push({ arbitrary: fc.constantFrom(...own), weight: 6 });
    if (everyOwn.length > 0) choices.push({ arbitrary: fc.constantFrom(...everyOwn), weight: 1 });
    if (this.ids.foreign.length > 0)
      choices.push({ arbitrary: fc.constantFrom(...this.ids.foreign), weight: 1 });
    return fc.oneof(...choices);
  }

  /** A value valid by `schema` (as far as a schema can say: references may still be wrong). */
  valid(input: Schema, name = '', depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    if (schema.oneOf) return fc.oneof(...schema.oneOf.map((s) => this.valid(s, name, depth)));
    if (schema.enum) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case 'object': {
        const properties = schema.properties ?? {};
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, property] of Object.entries(properties))
          model[key] = this.valid(property, key, depth + 1);
        return fc.record(model, { requiredKeys: schema.required ?? [] });
      }
      case 'array': {
        const minLength = schema.minItems ?? 0;
        const maxLength = Math.min(schema.maxItems ?? Infinity, minLength + 3);
        if (schema.example !== undefined && Array.isArray(schema.example) && schema.items) {
          // The document's own example holds meaningful members (event types, say).
          const examples = schema.example;
          return fc.oneof(
            fc.subarray(examples, { minLength: Math.min(1, examples.length) }),
            fc.array(this.valid(schema.items, name, depth + 1), { minLength, maxLength }),
          );
        }
        return fc.array(this.valid(schema.items ?? {}, name, depth + 1), { minLength, maxLength });
      }
      case 'string':
        return this.validString(schema, name);
      case 'number':
      case 'integer': {
        const min = schema.minimum ?? 0;
        const max = Math.min(schema.maximum ?? 1_000_000, min + 1_000_000);
        return fc.integer({ min, max });
      }
      case 'boolean':
        return fc.boolean();
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private validString(schema: Schema, name: string): fc.Arbitrary<string> {
    if (schema.format === 'uuid') return this.uuid(name);
    if (schema.format === 'date-time')
      return fc
        .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') })
        .filter((d) => !Number.isNaN(d.getTime()))
        .map((d) => d.toISOString());
    const description = schema.description ?? '';
    // Constraints the document states only in prose.
    if (/\bhex\b/i.test(description))
      return fc.string({
        unit: fc.constantFrom(...'0123456789abcdefABCDEF'),
        minLength: 7,
        maxLength: 64,
      });
    if (/\burl\b/i.test(description) || name === 'url' || name.endsWith('_url'))
      return fc.oneof(
        ...(this.ids.urls.length > 0 ? [fc.constantFrom(...this.ids.urls)] : []),
        fc.webUrl(),
      );
    const minLength = schema.minLength ?? 0;
    const maxLength = schema.maxLength ?? 255;
    const generated = fc.oneof(
      {
        arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 30) }),
        weight: 4,
      },
      {
        arbitrary: fc.string({
          unit: 'grapheme',
          minLength,
          maxLength: Math.min(maxLength, minLength + 10),
        }),
        weight: 1,
      },
      // The longest the document allows.
      { arbitrary: fc.constant('x'.repeat(Math.min(maxLength, 70_000))), weight: 1 },
    );
    return schema.example !== undefined
      ? fc.oneof(fc.constant(String(schema.example)), generated)
      : generated;
  }

  /** A value that breaks `schema`, or at least probes its edges. */
  hostile(input: Schema, name = ''): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const specific: fc.Arbitrary<unknown>[] = [];
    // A format's own edge cases first (twice: more likely than a generic string).
    if (schema.format === 'uuid') specific.push(malformedUuid, malformedUuid);
    if (schema.format === 'date-time') specific.push(hostileDate, hostileDate, hostileDate);
    if (schema.type === 'string') specific.push(hostileString);
    if (schema.type === 'number' || schema.type === 'integer') specific.push(hostileNumber);
    if (schema.enum) specific.push(fc.constantFrom('', 'PASSED', 'unknown', `${schema.enum[0]} `));
    if (schema.type === 'array')
      specific.push(
        fc
          .constantFrom([], (schema.maxItems ?? 0) + 1)
          .chain((n) =>
            typeof n === 'number'
              ? this.valid(schema.items ?? {}, name).map((item) =>
                  Array.from({ length: n }, () => item),
                )
              : fc.constant(n),
          ),
      );
    return specific.length > 0
      ? fc.oneof(
          { arbitrary: fc.oneof(...specific), weight: 3 },
          { arbitrary: wrongType, weight: 1 },
        )
      : wrongType;
  }
}

/** The resource kind a field, parameter or path segment names. */
export function kindOf(name: string): string | undefined {
  const base = name.replace(/(_ids?|Id|s)$/, '').replace(/^test_?/, '');
  const kinds: Record<string, string> = {
    project: 'project',
    build: 'build',
    release: 'release',
    run: 'run',
    testrun: 'run',
    case: 'case',
    testcase: 'case',
    webhook: 'webhook',
    deliverie: 'delivery',
    delivery: 'delivery',
    organization: 'organization',
  };
  return kinds[base];
}

// ---------------------------------------------------------------------------------------
// Mutations of a valid JSON value

type PathStep = string | number;

/** Paths of every node of a JSON value (the root is []). */
function nodePaths(value: unknown, prefix: PathStep[] = [], out: PathStep[][] = []): PathStep[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => nodePaths(v, [...prefix, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) nodePaths(v, [...prefix, k], out);
  return out;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function setAt(root: unknown, path: PathStep[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = clone(root) as Record<PathStep, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<PathStep, unknown>;
  node[path[path.length - 1]] = replacement;
  return copy;
}

function deleteAt(root: unknown, path: PathStep[]): unknown {
  const copy = clone(root) as Record<PathStep, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<PathStep, unknown>;
  const last = path[path.length - 1];
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
  return copy;
}

/** The schema of the node at `path` in a value valid by `schema`, when the walk can tell. */
function schemaAt(arbs: SchemaArbitraries, schema: Schema, path: PathStep[]): Schema | undefined {
  let current: Schema | undefined = arbs.resolve(schema);
  for (const step of path) {
    if (!current) return undefined;
    if (current.oneOf)
      current = current.oneOf.map((s) => arbs.resolve(s)).find((s) => s.type === 'object');
    if (!current) return undefined;
    current = typeof step === 'number' ? current.items : current.properties?.[step];
    if (current) current = arbs.resolve(current);
  }
  return current;
}

/** JSON values that replace a whole body. */
const hostileBody: fc.Arbitrary<Body> = fc.oneof(
  fc
    .constantFrom<unknown>(null, [], {}, '', 'text', 0, -1, true, [{}], { '': '' })
    .map((value) => ({
      kind: 'json' as const,
      value,
    })),
  fc
    .constantFrom(
      '{',
      '}',
      '{"name": }',
      '{"name": "a",}',
      "{'name': 'a'}",
      '{"name": "a"}}',
      '{"name": "a" "b": 1}',
      'NaN',
      'Infinity',
      '{"a": NaN}',
      '{"a": 01}',
      '{"a": .5}',
      '{"a": "\\x41"}',
      '{"a": "\\uZZZZ"}',
      '{"a": "\\ud800"}',
      '{"a": "\\u0000"}',
      '{"\\u0000": 1}',
      '{"\\ud800": 1}',
      '\uFEFF{"name": "a"}',
      '{"name": "a"}\u0000',
      '{"name": "a", "name": "b"}',
      '{"__proto__": {"admin": true}, "name": "a"}',
      '{"constructor": {"prototype": {"x": 1}}}',
      '/* c */ {"name": "a"}',
      '[' + '1,'.repeat(50_000) + '1]',
      '"' + 'a'.repeat(100_000) + '"',
    )
    .map((text) => ({ kind: 'text' as const, text, contentType: 'application/json' })),
  // Deep nesting: over the contract's 64 levels, and deep enough to blow a recursive walker.
  fc
    .tuple(fc.constantFrom(65, 100, 2000, 100_000), fc.constantFrom(['[', ']'], ['{"a":', '}']))
    .map(([depth, [open, close]]) => ({
      kind: 'deep' as const,
      depth,
      open,
      close,
      contentType: 'application/json',
    })),
  // UTF-16 JSON holding a raw lone surrogate or NUL (no escape for a byte scan to find).
  fc
    .constantFrom(
      '{"name": "a\uD800"}',
      '{"name": "a\u0000", "url": "\uDFFF"}',
      '{"results": [{"status": "passed", "automation_id": "\uD800"}]}',
    )
    .map((text) => ({
      kind: 'text' as const,
      text,
      encoding: 'utf16le',
      contentType: 'application/json; charset=utf-16le',
    })),
  // Invalid UTF-8 (an encoded lone surrogate, an overlong encoding, a stray continuation byte).
  fc
    .constantFrom(
      '7b226e616d65223a2261eda080227d',
      '7b226e616d65223a22c0af227d',
      '7b226e616d65223a2280227d',
    )
    .map((hex) => ({
      kind: 'bytes' as const,
      hex,
      contentType: 'application/json',
    })),
);

/** Content types other than the one documented (or none at all). */
const wrongContentType = fc.constantFrom(
  undefined,
  'text/plain',
  'application/xml',
  'text/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/JSON',
  'application/json-patch+json',
  'application/problem+json',
  '*/*',
  'application',
  ';;;',
);

export interface MutationChoice {
  body: Body | undefined;
  mutation: string;
}

/** Mutations of a valid JSON body; `valid` is the body they start from. */
export function mutatedJsonBody(
  arbs: SchemaArbitraries,
  schema: Schema,
  valid: unknown,
): fc.Arbitrary<MutationChoice> {
  const paths = nodePaths(valid);
  const fieldPaths = paths.filter((p) => p.length > 0);
  // Optional fields the valid body left out are targets too (a hostile `executed_at`, say).
  const targets = [...paths];
  for (const path of paths) {
    const at = schemaAt(arbs, schema, path);
    const node = path.reduce<unknown>((n, step) => (n as Record<PathStep, unknown>)[step], valid);
    if (at?.properties && node !== null && typeof node === 'object' && !Array.isArray(node))
      for (const key of Object.keys(at.properties))
        if (!(key in node)) targets.push([...path, key]);
  }
  // Fields with a format (timestamps, ids) have the most edges: twice as likely.
  for (const path of [...targets])
    if (path.length > 0 && schemaAt(arbs, schema, path)?.format) targets.push(path);
  const json = (value: unknown, mutation: string): MutationChoice => ({
    body: { kind: 'json', value },
    mutation,
  });
  // Weights: mostly one hostile value inside an otherwise valid body, so validation is reached.
  const choices: Array<fc.WeightedArbitrary<MutationChoice>> = [
    {
      weight: 50,
      arbitrary: fc.constantFrom(...targets).chain((path) => {
        const at = schemaAt(arbs, schema, path);
        const name = String(path[path.length - 1] ?? '');
        return (at ? arbs.hostile(at, name) : wrongType).map((value) =>
          json(setAt(valid, path, value), `hostile value at ${pathName(path)}`),
        );
      }),
    },
    {
      weight: 20,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...paths),
          fc.constantFrom(...EXTRA_KEYS),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([path, key, value]) =>
          json(withExtraKey(valid, path, key, value), `extra field ${key} at ${pathName(path)}`),
        ),
    },
    {
      weight: 20,
      arbitrary: hostileBody.map((body) => ({ body, mutation: `hostile body (${body.kind})` })),
    },
    {
      weight: 20,
      arbitrary: wrongContentType.map((contentType) => ({
        body: {
          kind: 'text' as const,
          text: contentType?.includes('xml') ? '<a/>' : serializeJson(valid),
          contentType,
        },
        mutation: `content type ${contentType ?? '(none)'}`,
      })),
    },
    {
      weight: 8,
      arbitrary: fc.constant({
        body: { kind: 'text' as const, text: '', contentType: 'application/json' },
        mutation: 'empty body',
      }),
    },
    { weight: 8, arbitrary: fc.constant({ body: undefined, mutation: 'no body' }) },
    {
      // Over the 10 MiB limit; rare, as it is slow to send.
      weight: 1,
      arbitrary: fc.constant({
        body: {
          kind: 'huge' as const,
          bytes: 10 * 1024 * 1024 + 1,
          contentType: 'application/json',
        },
        mutation: 'body over 10 MiB',
      }),
    },
  ];
  if (fieldPaths.length > 0)
    choices.push({
      weight: 20,
      arbitrary: fc
        .constantFrom(...fieldPaths)
        .map((path) => json(deleteAt(valid, path), `missing ${pathName(path)}`)),
    });
  return fc.oneof(...choices);
}

const EXTRA_KEYS = [
  'extra',
  '__proto__',
  'constructor',
  'id',
  'organization_id',
  'created_at',
  'status',
  '',
];

/** `valid` with `key` added to the object at `path` (or that node replaced by an object). */
function withExtraKey(valid: unknown, path: PathStep[], key: string, value: unknown): unknown {
  const target = path.reduce<unknown>(
    (node, step) => (node as Record<PathStep, unknown>)[step],
    valid,
  );
  const base =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? target : {};
  // Parsed from text so that `__proto__` is an own key, as it is on the wire.
  const extended: unknown = JSON.parse(
    JSON.stringify({ [`${RAW_PREFIX}key`]: value, ...base }).replace(
      JSON.stringify(`${RAW_PREFIX}key`),
      JSON.stringify(key),
    ),
  );
  return setAt(valid, path, extended);
}

export function pathName(path: PathStep[]): string {
  return (
    path.reduce<string>(
      (name, step) =>
        typeof step === 'number' ? `${name}[${step}]` : name ? `${name}.${step}` : step,
      '',
    ) || 'body'
  );
}

// ---------------------------------------------------------------------------------------
// JUnit XML bodies (the one operation that documents application/xml)

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/>/g, '&gt;');

/** A JUnit report from generated names, some hostile; and reports that are not quite XML. */
function junitBody(): fc.Arbitrary<MutationChoice> {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
    { weight: 1, arbitrary: hostileString },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '&#0;',
        '&#xD800;',
        '&#xDFFF;',
        '&#xFFFE;',
        '&#x110000;',
        '&bogus;',
        '&#65;',
      ),
    },
  );
  const testcase = fc
    .record({
      classname: name,
      name,
      time: fc.oneof(
        fc.constantFrom('0.5', '-1', '1e309', 'NaN', '', '99999999999999', '1,5', '0x10'),
        fc.double({ min: 0, max: 1e6, noNaN: true }).map(String),
      ),
      outcome: fc.constantFrom(
        '',
        '<failure message="m" type="T">trace</failure>',
        '<error/>',
        '<skipped/>',
        '<failure>&#0;</failure>',
        '<flakyFailure/>',
      ),
    })
    .map(({ classname, name: testName, time, outcome }) => {
      // A name that already holds an entity is kept as is, so the entity reaches the parser.
      const attr = (v: string) => (/^&#?\w+;$/.test(v) ? v : xmlEscape(v));
      return `<testcase classname="${attr(classname)}" name="${attr(testName)}" time="${time}">${outcome}</testcase>`;
    });
  const report = fc
    .array(testcase, { minLength: 1, maxLength: 5 })
    .map(
      (cases) =>
        `<?xml version="1.0" encoding="UTF-8"?><testsuite name="s">${cases.join('')}</testsuite>`,
    );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          report,
          fc.constantFrom('application/xml', 'text/xml', 'application/xml; charset=utf-8'),
        )
        .map(([text, contentType]) => ({
          body: { kind: 'text' as const, text, contentType },
          mutation: 'JUnit XML',
        })),
    },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(
          '',
          'not xml',
          '<testsuite>',
          '<testsuite><testcase name="a"></testsuite>',
          '<testsuite><testcase name="a\u0000b"/></testsuite>',
          '<testsuite><testcase name="a\uD800b"/></testsuite>',
          '<testsuite><testcase name="a"><failure><![CDATA[x]]]]><![CDATA[>]]></failure></testcase></testsuite>',
          '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><testsuite><testcase name="&b;"/></testsuite>',
          '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&x;"/></testsuite>',
          '<?xml version="1.0" encoding="UTF-16"?><testsuite><testcase name="a"/></testsuite>',
          '\uFEFF<testsuite><testcase name="a"/></testsuite>',
          '<testsuites><testsuites><testsuite/></testsuites></testsuites>',
          '<testsuite><testcase/></testsuite>',
          '<testsuite><testcase name=""/></testsuite>',
          `<testsuite>${'<testsuite>'.repeat(2000)}${'</testsuite>'.repeat(2000)}</testsuite>`,
          `<testsuite><testcase name="${'a'.repeat(70_000)}"/></testsuite>`,
          `<testsuite><testcase name="a"><failure message="${'m'.repeat(100_000)}">${'s'.repeat(100_000)}</failure></testcase></testsuite>`,
        )
        .map((text) => ({
          body: { kind: 'text' as const, text, contentType: 'application/xml' },
          mutation: 'hostile XML',
        })),
    },
    {
      // UTF-16: the one encoding in which a lone surrogate and NUL reach the parser as text.
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '<testsuite><testcase classname="c" name="a\uD800b"/></testsuite>',
          '<testsuite><testcase classname="c" name="a\u0000b"/></testsuite>',
          '<testsuite><testcase name="x"><failure message="\uDC00" type="\uD800">\uD800</failure></testcase></testsuite>',
          '<testsuite><testcase name="x"><system-out>\u0000</system-out></testcase></testsuite>',
        )
        .map((text) => ({
          body: {
            kind: 'text' as const,
            text,
            encoding: 'utf16le',
            contentType: 'application/xml; charset=utf-16le',
          },
          mutation: 'UTF-16 XML',
        })),
    },
    {
      // An encoded lone surrogate (ED A0 80) and a NUL byte, raw in the document.
      weight: 1,
      arbitrary: fc
        .constantFrom(
          Buffer.from('<testsuite><testcase name="a\uFFFDb"/></testsuite>')
            .toString('hex')
            .replace('efbfbd', 'eda080'),
          Buffer.from('<testsuite><testcase name="a\u0001b"/></testsuite>')
            .toString('hex')
            .replace('01', '00'),
        )
        .map((hex) => ({
          body: { kind: 'bytes' as const, hex, contentType: 'application/xml' },
          mutation: 'XML with invalid bytes',
        })),
    },
  );
}

// ---------------------------------------------------------------------------------------
// Whole requests

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'];

/** Path ids that are not ids of this organization, as they would appear in a URL. */
const hostilePathId: fc.Arbitrary<string> = fc.oneof(
  malformedUuid.map(percentEncode),
  fc.constantFrom(
    '%00',
    '%ZZ',
    '%',
    '%ED%A0%80',
    '%C0%AF',
    '%2F',
    '..',
    '.',
    '%20',
    '~',
    'a'.repeat(3000),
    '%F0%9F%98%80',
  ),
  hostileString.map(percentEncode),
);

/** Query values that probe limit/offset (and any number), dates, ids, enums, strings. */
const HOSTILE_INTEGERS = [
  '9223372036854775808',
  '9223372036854775807',
  '-9223372036854775809',
  '1000000000',
  '1000000001',
  '2147483648',
  '-1',
  '0',
  '101',
  '100',
  '1.5',
  '1.0',
  '1e3',
  '1e999',
  '0x10',
  '+1',
  ' 1',
  '1 ',
  '１',
  '-0',
  'NaN',
  'Infinity',
  'true',
  '',
];

function hostileQueryValue(arbs: SchemaArbitraries, param: Parameter): fc.Arbitrary<string> {
  const schema = arbs.resolve(param.schema ?? {});
  const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));
  const options: fc.Arbitrary<string>[] = [arbs.hostile(schema, param.name).map(asText)];
  if (schema.type === 'number' || schema.type === 'integer')
    options.push(fc.constantFrom(...HOSTILE_INTEGERS), fc.constantFrom(...HOSTILE_INTEGERS));
  if (schema.format === 'date-time') options.push(hostileDate.map(asText), hostileDate.map(asText));
  return fc.oneof(...options);
}

export interface Auth {
  /** A key of the fuzzing tenant holding every scope. */
  key: string;
  /** A key of an organization on the Basic plan (every call: 403 plan_required). */
  basicKey: string;
}

const idempotencyKey = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: fc.uuid().map((u) => `fuzz-${u}`) },
  // Shared by many requests: replays and 422 idempotency_key_reused.
  { weight: 2, arbitrary: fc.constantFrom('fuzz-shared-1', 'fuzz-shared-2') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'k'.repeat(255),
      'k'.repeat(256),
      'k'.repeat(8000),
      'cl\u00e9-\u00ff',
      'a\tb',
      '%00',
    ),
  },
);

function authorization(auth: Auth): fc.Arbitrary<string | undefined> {
  return fc.constantFrom(
    undefined,
    '',
    'Bearer',
    'Bearer ',
    `bearer ${auth.key}`,
    `Bearer  ${auth.key}`,
    `Bearer ${auth.key} `,
    `Bearer ${auth.key.toUpperCase()}`,
    `Bearer ${auth.key}0`,
    `Basic ${auth.key}`,
    `Bearer ${auth.basicKey}`,
    `Bearer svc_live_${'f'.repeat(4000)}`,
  );
}

interface OperationInfo {
  path: string;
  method: string;
  operation: Operation;
}

export function operationsOf(document: OpenApiDocument): OperationInfo[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
}

/** A request for one operation: valid by the document, or with one part mutated. */
function operationRequest(
  arbs: SchemaArbitraries,
  document: OpenApiDocument,
  info: OperationInfo,
  auth: Auth,
): fc.Arbitrary<FuzzRequest> {
  const { path, method, operation } = info;
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const takesIdempotencyKey = parameters.some(
    (p) => p.in === 'header' && p.name === 'Idempotency-Key',
  );
  const segments = path.split('/');
  // A path id's kind is named by the segment before it (`/builds/{id}` → build).
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of pathParams) {
    const before = segments[segments.indexOf(`{${p.name}}`) - 1];
    pathArbs[p.name] = arbs.uuid(before);
  }
  const queryModel: Record<string, fc.Arbitrary<string>> = {};
  for (const p of queryParams)
    queryModel[p.name] = arbs.valid(p.schema ?? { type: 'string' }, p.name).map(String);
  const jsonSchema = operation.requestBody?.content['application/json']?.schema;
  const takesXml = operation.requestBody?.content['application/xml'] !== undefined;
  const objectSchema =
    jsonSchema &&
    (arbs.resolve(jsonSchema).oneOf?.find((s) => arbs.resolve(s).type === 'object') ?? jsonSchema);
  const validBody = objectSchema ? arbs.valid(objectSchema) : fc.constant(undefined);

  const base = fc.record({
    pathValues: fc.record(pathArbs),
    query: fc.record(queryModel, {
      requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
    }),
    idempotencyKey: takesIdempotencyKey ? idempotencyKey : fc.constant(undefined),
    body: validBody,
    xml: takesXml ? fc.boolean() : fc.constant(false),
  });

  const kinds: Array<fc.WeightedArbitrary<string>> = [
    { weight: 4, arbitrary: fc.constant('valid') },
    { weight: 2, arbitrary: fc.constant('query') },
    { weight: 1, arbitrary: fc.constant('headers') },
    { weight: 1, arbitrary: fc.constant('method') },
    { weight: 1, arbitrary: fc.constant('auth') },
  ];
  if (pathParams.length > 0) kinds.push({ weight: 3, arbitrary: fc.constant('path') });
  if (objectSchema) kinds.push({ weight: 16, arbitrary: fc.constant('body') });
  else kinds.push({ weight: 1, arbitrary: fc.constant('unexpected body') });

  return fc.tuple(base, fc.oneof(...kinds)).chain(([parts, kind]) => {
    const build = (changes: {
      pathValues?: Record<string, string>;
      queryText?: string;
      headers?: Record<string, string | undefined>;
      body?: Body | null;
      method?: string;
      mutation: string;
    }): FuzzRequest => {
      const values =
        changes.pathValues ??
        Object.fromEntries(Object.entries(parts.pathValues).map(([k, v]) => [k, percentEncode(v)]));
      const pathname = path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name]);
      const queryText =
        changes.queryText ??
        Object.entries(parts.query)
          .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
          .join('&');
      let body: Body | undefined;
      if (changes.body !== undefined) body = changes.body ?? undefined;
      else if (parts.xml)
        body = undefined; // replaced below
      else if (parts.body !== undefined)
        body = { kind: 'json', value: parts.body, contentType: 'application/json' };
      const headers: Record<string, string | undefined> = {
        Authorization: `Bearer ${auth.key}`,
        'Idempotency-Key': parts.idempotencyKey,
        ...changes.headers,
      };
      return {
        operation: `${method.toUpperCase()} ${path}`,
        method: (changes.method ?? method).toUpperCase(),
        url: queryText ? `${pathname}?${queryText}` : pathname,
        headers: Object.fromEntries(
          Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined),
        ),
        body,
        mutation: changes.mutation,
        documentedMethod: changes.method === undefined,
      };
    };
    // The JUnit form: parameters in the query, the report as the body.
    if (parts.xml && (kind === 'valid' || kind === 'body'))
      return fc.record({ xml: junitBody(), query: fc.record(queryModel) }).map(({ xml, query }) =>
        build({
          body: xml.body ?? null,
          queryText: Object.entries(query)
            .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
            .join('&'),
          mutation: xml.mutation,
        }),
      );
    switch (kind) {
      case 'path':
        return fc
          .tuple(fc.constantFrom(...pathParams.map((p) => p.name)), hostilePathId)
          .map(([name, value]) =>
            build({
              pathValues: {
                ...Object.fromEntries(
                  Object.entries(parts.pathValues).map(([k, v]) => [k, percentEncode(v)]),
                ),
                [name]: value,
              },
              mutation: `path ${name}`,
            }),
          );
      case 'query': {
        const entries = Object.entries(parts.query).map(
          ([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`,
        );
        const names =
          queryParams.length > 0
            ? queryParams
            : [{ name: 'limit', in: 'query' as const, schema: { type: 'number' } }];
        return fc.tuple(fc.constantFrom(...names), fc.nat()).chain(([param, variant]) => {
          const name = percentEncode(param.name);
          const structural = [
            `${name}[]=1&${name}[]=2`,
            `${name}[a]=1`,
            `${name}=1&${name}=2`,
            name,
            `${name}=%`,
            `${name}=%ZZ`,
            `${name}=%00`,
            `${name}=%ED%A0%80`,
            `${name}=${'9'.repeat(5000)}`,
            `__proto__[${name}]=1`,
            `unknown_filter=1`,
          ];
          const value =
            variant % 4 === 0
              ? fc.constantFrom(...structural)
              : hostileQueryValue(arbs, param as Parameter).map(
                  (v) => `${name}=${percentEncode(v)}`,
                );
          return value.map((fragment) =>
            build({
              queryText: [...entries.filter((e) => !e.startsWith(`${name}=`)), fragment].join('&'),
              mutation: `query ${param.name}`,
            }),
          );
        });
      }
      case 'headers':
        return fc
          .record({
            idem: idempotencyKey,
            requestId: fc.constantFrom(
              undefined,
              '',
              'a'.repeat(129),
              'ok-id.1_2',
              '../etc',
              '\u00e9',
            ),
            accept: fc.constantFrom(undefined, 'application/xml', 'text/html', '*/*', ';'),
          })
          .map(({ idem, requestId, accept }) =>
            build({
              headers: {
                'Idempotency-Key': idem ?? 'fuzz-shared-1',
                'X-Request-Id': requestId,
                Accept: accept,
              },
              mutation: 'headers',
            }),
          );
      case 'method': {
        const others = METHODS.filter((m) => !(m in document.paths[path]));
        return fc
          .constantFrom(...others)
          .map((other) => build({ method: other, mutation: `method ${other.toUpperCase()}` }));
      }
      case 'auth':
        return authorization(auth).map((value) =>
          build({ headers: { Authorization: value }, mutation: 'authorization' }),
        );
      case 'unexpected body':
        return hostileBody.map((body) =>
          build({ body, mutation: `body on ${method.toUpperCase()}` }),
        );
      case 'body':
        return mutatedJsonBody(arbs, objectSchema as Schema, parts.body).map((choice) =>
          build({ body: choice.body ?? null, mutation: choice.mutation }),
        );
      default:
        return fc.constant(build({ mutation: 'valid' }));
    }
  });
}

/** Requests over every operation of the document, each equally likely. */
export function requestArbitrary(
  document: OpenApiDocument,
  ids: IdPools,
  auth: Auth,
): fc.Arbitrary<FuzzRequest> {
  const arbs = new SchemaArbitraries(document, ids);
  return fc.oneof(
    ...operationsOf(document).map((info) => operationRequest(arbs, document, info, auth)),
  );
}
