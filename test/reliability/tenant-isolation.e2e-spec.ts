import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, Reflector } from '@nestjs/core';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { ACCESS_METADATA, type AccessRule } from '../../src/routes/access.decorators.js';
import { SCOPES } from '../../src/routes/scopes.js';
import { createProject, createRelease, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { HTTPS, startApp, withKey, type TestApp } from '../support/app.js';
import { Receiver } from '../support/receiver.js';

/*
 * R4: organization B walks every route of the application's own route table with
 * organization A's ids in the path, the body and the query. Path ids must answer 404, body and
 * query ids 400 naming the field (CONTRACT §1, §5b), a list filtered by A's id must be empty,
 * and no response body may carry anything of A. The routes, their path parameters and their id
 * fields all come from the running application and openapi.json, so a route added later is
 * walked without touching this file; a route the walker cannot fill fails the first test.
 */

// Every string A owns carries this marker (hex, so it also serves as A's commit SHA and build
// number); a 16-hex run cannot occur inside a UUID, whose longest hex run is 12.
const MARKER_A = randomBytes(8).toString('hex');
const MARKER_B = randomBytes(8).toString('hex');
const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Schema = {
  $ref?: string;
  /** OpenAPI 3.1: a nullable field's type is `[T, "null"]`; `resolve` gives T alone. */
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  example?: unknown;
  minimum?: number;
  maxLength?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
};
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
const openapi: {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
} = JSON.parse(readFileSync('openapi.json', 'utf8'));

/** A route as the application registered it, with its full path in OpenAPI form. */
interface Route {
  method: Method;
  path: string;
  handler: string;
  access: AccessRule | undefined;
  operation: Operation | undefined;
}

/**
 * The kinds of resource an id can name. A path parameter `id` takes its kind from the
 * collection before it (`/builds/{id}` → build), any other parameter or field from its own name
 * (`deliveryId`, `test_case_id`, `test_case_ids` → delivery, test case), after normalizing
 * case, underscores and plurals. `baseline_run_id` names another test run of the same project
 * (CONTRACT §12): the tenant's second run.
 */
const KINDS = [
  'organization',
  'project',
  'testcase',
  'release',
  'build',
  'testrun',
  'baselinerun',
  'result',
  'webhook',
  'delivery',
  'attachment',
] as const;
type Kind = (typeof KINDS)[number];
const ALIASES: Record<string, Kind> = { run: 'testrun' };

function kindOf(name: string): Kind | undefined {
  let word = name.toLowerCase().replace(/[^a-z]/g, '');
  word = word.replace(/ids?$/, '');
  const candidates = [word, word.replace(/ies$/, 'y'), word.replace(/s$/, '')];
  for (const candidate of candidates) {
    if ((KINDS as readonly string[]).includes(candidate)) return candidate as Kind;
    if (ALIASES[candidate]) return ALIASES[candidate];
  }
  return undefined;
}

/** The kind of each `{param}` of `path`, or undefined for one the walker cannot fill. */
function pathParamKinds(path: string): { name: string; kind: Kind | undefined }[] {
  const segments = path.split('/');
  return segments.flatMap((segment, index) => {
    const match = /^\{(.+)\}$/.exec(segment);
    if (!match) return [];
    const name = match[1];
    const kind = name === 'id' ? kindOf(segments[index - 1] ?? '') : kindOf(name);
    return [{ name, kind }];
  });
}

function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (;;) {
    if (current.$ref) current = openapi.components.schemas[current.$ref.split('/').pop() ?? ''];
    else if (current.oneOf ?? current.anyOf) {
      const options = (current.oneOf ?? current.anyOf) as Schema[];
      current = options.find((o) => resolve(o).type === 'object' || o.$ref) ?? options[0];
    } else if (current.allOf) current = current.allOf[0];
    else if (Array.isArray(current.type)) {
      const types = current.type.filter((type) => type !== 'null');
      current = {
        ...current,
        type: types.length === 1 ? types[0] : types,
        ...(current.enum ? { enum: current.enum.filter((value) => value !== null) } : {}),
      };
      if (Array.isArray(current.type)) return current;
    } else return current;
  }
}

/** A field takes an id when it is a UUID (or an array of them) named `…_id` / `…_ids`. */
function isIdField(name: string, schema: Schema): boolean {
  if (!/_ids?$/.test(name)) return false;
  const resolved = resolve(schema);
  if (resolved.format === 'uuid') return true;
  return resolved.type === 'array' && resolve(resolved.items).format === 'uuid';
}

/** Dotted paths (`results[0].test_case_id`) of every id field of a request body schema. */
function bodyIdFields(schema: Schema, prefix = ''): string[] {
  const resolved = resolve(schema);
  if (resolved.type === 'array' && resolved.items)
    return bodyIdFields(resolved.items, `${prefix}[0]`);
  return Object.entries(resolved.properties ?? {}).flatMap(([name, property]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    return isIdField(name, property) ? [path] : bodyIdFields(property, path);
  });
}

const lastName = (path: string) =>
  path
    .split('.')
    .pop()
    ?.replace(/\[\d+\]$/, '') ?? path;
const withoutIndexes = (field: string) => field.replace(/\[\d+\]/g, '');

function jsonBodySchema(operation: Operation | undefined): Schema | undefined {
  return operation?.requestBody?.content['application/json']?.schema;
}

/** A content type other than JSON the route consumes (the JUnit form of ingest). */
function xmlContentType(operation: Operation | undefined): string | undefined {
  return Object.keys(operation?.requestBody?.content ?? {}).find((type) => /xml/.test(type));
}

/** Ids of one organization's resources, by kind. */
type Ids = Record<Kind, string>;

interface Tenant {
  marker: string;
  orgId: string;
  key: string;
  ids: Ids;
  webhookSecret: string;
  receiverUrl: string;
}

/**
 * A request body that passes validation for `tenant`: required fields (from their example,
 * else a plausible value) plus every id field, filled with the tenant's own ids of its kind.
 */
function synthesize(schema: Schema, tenant: Tenant, name = ''): unknown {
  const resolved = resolve(schema);
  if (isIdField(name, resolved)) {
    const id = tenant.ids[kindOf(name) as Kind];
    return resolved.type === 'array' ? [id] : id;
  }
  if (resolved.type === 'object' || resolved.properties) {
    const body: Record<string, unknown> = {};
    for (const [property, propertySchema] of Object.entries(resolved.properties ?? {})) {
      const required = resolved.required?.includes(property);
      if (required || isIdField(property, propertySchema) || hasIdField(propertySchema))
        body[property] = synthesize(propertySchema, tenant, property);
    }
    return body;
  }
  if (/(^|_)url$/.test(name)) return tenant.receiverUrl;
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.type === 'array') return [synthesize(resolved.items ?? {}, tenant, name)];
  // The last value of an enum is the most consequential one here (a run's `completed`), so a
  // missing tenant filter on a path id would show as a change of A's rows.
  if (resolved.enum) return resolved.enum[resolved.enum.length - 1];
  if (resolved.type === 'number' || resolved.type === 'integer') return resolved.minimum ?? 0;
  if (resolved.type === 'boolean') return false;
  return `${tenant.marker} ${name}`.slice(0, resolved.maxLength ?? 255);
}

function hasIdField(schema: Schema): boolean {
  return bodyIdFields(schema).length > 0;
}

/** The narrowed sets of other optional id fields to keep: none, then each one alone. */
function narrowings(others: string[]): [string, string[]][] {
  return [['alone', []], ...others.map((name): [string, string[]] => [`with ${name}`, [name]])];
}

function setAt(target: unknown, path: string, value: unknown): void {
  const keys = path.split(/\.|\[(\d+)\]/).filter((key) => key !== undefined && key !== '');
  let node = target as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function fillPath(path: string, pick: (param: string, kind: Kind) => string): string {
  const kinds = new Map(pathParamKinds(path).map((p) => [p.name, p.kind as Kind]));
  return path.replace(/\{([^}]+)\}/g, (_all, name: string) => pick(name, kinds.get(name) as Kind));
}

/** One request of the walk and what it must answer. */
interface Probe {
  route: Route;
  label: string;
  url: string;
  query?: Record<string, string>;
  body?: unknown;
  contentType?: string;
  /** Sent only if this control was accepted (2xx); otherwise counted as not applicable. */
  onlyIf?: Probe;
  expect:
    | { kind: 'not_found' }
    | { kind: 'invalid_field'; field: string; emptyListAllowed: boolean }
    | { kind: 'ok' }
    | { kind: 'empty_or_invalid' }
    | { kind: 'no_server_error' };
}

const JUNIT = (name: string) =>
  `<?xml version="1.0"?><testsuite name="isolation"><testcase classname="isolation" name="${name}" time="0.01"/></testsuite>`;

describe('tenant isolation: organization B with organization A’s ids', () => {
  let t: TestApp;
  let db: DataSource;
  let receiver: Receiver;
  let a: Tenant;
  let b: Tenant;
  let routes: Route[];
  const skipped: { route: string; reason: string }[] = [];
  const unfillable: string[] = [];
  // Outcomes of the walk, filled once in beforeAll and judged by the tests below.
  const sent: { probe: Probe; res: Response }[] = [];
  const answers = new Map<Probe, Response>();
  const notApplicable: Probe[] = [];
  let fingerprint: string[] = [];
  let aValues = new Map<string, string>();
  let apiBefore: unknown;
  let apiAfter: unknown;
  let dbBefore: Record<string, string>;
  let dbAfter: Record<string, string>;

  /** Every route Nest registered, with the full path Express serves it under. */
  function discoverRoutes(): Route[] {
    const reflector = t.app.get(Reflector);
    const express = t.app.getHttpAdapter().getInstance() as {
      router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
    };
    const served = new Set(
      express.router.stack.flatMap((layer) =>
        layer.route
          ? Object.keys(layer.route.methods).map((m) => `${m.toUpperCase()} ${layer.route?.path}`)
          : [],
      ),
    );
    const found: Route[] = [];
    for (const wrapper of t.app.get(DiscoveryService).getControllers()) {
      const controller = wrapper.metatype as (new () => object) | undefined;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const own = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (own === undefined) continue;
        const method = RequestMethod[
          Reflect.getMetadata(METHOD_METADATA, handler) as number
        ] as Method;
        const bare = [base, own]
          .map((part) => part.replace(/^\/+|\/+$/g, ''))
          .filter(Boolean)
          .join('/');
        // The global prefix applies unless the route is excluded from it (probes, internal).
        const express = [`/api/v1/${bare}`, `/${bare}`].find((p) => served.has(`${method} ${p}`));
        const path = (express ?? `/${bare}`).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        found.push({
          method,
          path,
          handler: `${controller.name}.${name}`,
          access: reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_METADATA, [
            handler,
            controller,
          ]),
          operation: openapi.paths[path]?.[method.toLowerCase()],
        });
      }
    }
    return found;
  }

  /** The routes the walker sends B to, and the ones it skips (with why) or cannot fill. */
  function classify(all: Route[]): Route[] {
    const walked: Route[] = [];
    for (const route of all) {
      const name = `${route.method} ${route.path} (${route.handler})`;
      if (route.access?.kind === 'internal' || route.path.startsWith('/internal/')) {
        // The operator's API spans every organization by design (CONTRACT §10): its token is
        // not a tenant's, so there is no other organization to be isolated from.
        skipped.push({ route: name, reason: 'internal API: cross-organization by design' });
        continue;
      }
      if (route.access?.kind === 'signed-link') {
        // An attachment's upload and download links carry their own signature, bound to one
        // attachment (CONTRACT §15): no key, so no organization to be isolated from.
        skipped.push({ route: name, reason: 'signed link: no key, its signature names the row' });
        continue;
      }
      const problems: string[] = [];
      if (route.access === undefined) problems.push('declares no access rule');
      if (route.access?.kind === 'api-key' && !route.operation)
        problems.push('is missing from openapi.json, so its id fields are unknown');
      for (const param of pathParamKinds(route.path))
        if (!param.kind) problems.push(`path parameter {${param.name}} names no known resource`);
      for (const param of route.operation?.parameters ?? [])
        if (param.in === 'query' && param.schema && isIdField(param.name, param.schema))
          if (!kindOf(param.name)) problems.push(`query id ${param.name} names no known resource`);
      const body = jsonBodySchema(route.operation);
      for (const field of body ? bodyIdFields(body) : [])
        if (!kindOf(lastName(field))) problems.push(`body id ${field} names no known resource`);
      if (problems.length) unfillable.push(`${name}: ${problems.join('; ')}`);
      else walked.push(route);
    }
    return walked;
  }

  /** The probes of one route: A's ids in its path, body and query, with B's own controls. */
  function probesOf(route: Route): Probe[] {
    const probes: Probe[] = [];
    const op = route.operation;
    const params = pathParamKinds(route.path);
    const bodySchema = jsonBodySchema(op);
    const baseBody = bodySchema ? synthesize(bodySchema, b) : undefined;
    const xml = xmlContentType(op);
    const queryParams = (op?.parameters ?? []).filter((p) => p.in === 'query');
    const queryIds = queryParams.filter((p) => p.schema && isIdField(p.name, p.schema));
    const bPath = fillPath(route.path, (_name, kind) => b.ids[kind]);
    const isList = route.method === 'GET';

    // Path: every parameter A's, then (with several) each one A's among B's own.
    if (params.length) {
      const combos = [params.map((p) => p.name)];
      if (params.length > 1) combos.push(...params.map((p) => [p.name]));
      for (const combo of combos) {
        probes.push({
          route,
          label: `path {${combo.join(', ')}} of A`,
          url: fillPath(route.path, (name, kind) =>
            combo.includes(name) ? a.ids[kind] : b.ids[kind],
          ),
          body: baseBody,
          expect: { kind: 'not_found' },
        });
      }
      // A read with B's own ids must succeed, which proves the paths above are real routes.
      if (route.method === 'GET')
        probes.push({ route, label: 'control: B’s own path', url: bPath, expect: { kind: 'ok' } });
    }

    // Body: A's id in each id field, first in the full body of B's ids, then alone and with
    // one other id field at a time (so a cross-field check, such as "differs from the test
    // run's" in ingest, cannot answer in the tenant check's place). A narrowed body is sent
    // only when the same body with B's id is accepted: otherwise its 400 could name another
    // field (ingest without a run needs project_id).
    if (bodySchema && baseBody !== undefined) {
      const fields = bodyIdFields(bodySchema);
      const schema = resolve(bodySchema);
      const required = new Set(schema.required ?? []);
      const control: Probe = {
        route,
        label: 'control: body of B’s ids',
        url: bPath,
        body: baseBody,
        expect: { kind: 'ok' },
      };
      if (fields.length) probes.push(control);
      for (const field of fields) {
        const top = field.split(/[.[]/)[0];
        const id = a.ids[kindOf(lastName(field)) as Kind];
        const topSchema = schema.properties?.[top];
        const leakedValue = !field.includes('[') && resolve(topSchema).type === 'array' ? [id] : id;
        const optional = Object.entries(schema.properties ?? {})
          .filter(([name, sub]) => name !== top && !required.has(name) && isIdField(name, sub))
          .map(([name]) => name);
        const variants: [string, unknown, Probe][] = [['full', baseBody, control]];
        const seen = new Set([JSON.stringify(baseBody)]);
        for (const [variant, kept] of narrowings(optional)) {
          const body = clone(baseBody) as Record<string, unknown>;
          for (const name of optional) if (!kept.includes(name)) delete body[name];
          if (seen.has(JSON.stringify(body))) continue;
          seen.add(JSON.stringify(body));
          const narrowControl: Probe = {
            route,
            label: `control: body ${variant.replace('with', `${top} with`)} of B’s ids`,
            url: bPath,
            body,
            expect: { kind: 'no_server_error' },
          };
          probes.push(narrowControl);
          variants.push([variant, body, narrowControl]);
        }
        for (const [variant, body, onlyIf] of variants) {
          const leaked = clone(body);
          setAt(leaked, field, leakedValue);
          probes.push({
            route,
            label: `body ${field} of A (${variant})`,
            url: bPath,
            body: leaked,
            onlyIf,
            expect: { kind: 'invalid_field', field, emptyListAllowed: false },
          });
        }
      }
    }

    // Query: id filters with A's id, among B's and alone (the latter under the same condition
    // as in the body). A route that also takes XML (the JUnit form of ingest) reads its
    // parameters from the query only with an XML body, so it gets a JUnit report.
    const bodyForQuery = xml ? JUNIT(`q-${MARKER_B}`) : baseBody;
    const contentType = xml ?? undefined;
    if (queryIds.length) {
      const baseQuery = Object.fromEntries(
        queryIds.map((p) => [p.name, b.ids[kindOf(p.name) as Kind]]),
      );
      const control: Probe = {
        route,
        label: 'control: query of B’s ids',
        url: bPath,
        query: baseQuery,
        body: bodyForQuery,
        contentType,
        expect: { kind: 'ok' },
      };
      probes.push(control);
      for (const param of queryIds) {
        const variants: [string, Record<string, string>, Probe][] = [['full', baseQuery, control]];
        const others = queryIds.map((p) => p.name).filter((name) => name !== param.name);
        const seen = new Set([JSON.stringify(baseQuery)]);
        for (const [variant, kept] of narrowings(others)) {
          const query = Object.fromEntries(
            [param.name, ...kept].map((name) => [name, baseQuery[name]]),
          );
          if (seen.has(JSON.stringify(query))) continue;
          seen.add(JSON.stringify(query));
          const narrowControl: Probe = {
            ...control,
            label: `control: query ${variant.replace('with', `${param.name} with`)} of B’s ids`,
            query,
            expect: { kind: 'no_server_error' },
          };
          probes.push(narrowControl);
          variants.push([variant, query, narrowControl]);
        }
        for (const [variant, query, onlyIf] of variants)
          probes.push({
            ...control,
            label: `query ${param.name} of A (${variant})`,
            query: { ...query, [param.name]: a.ids[kindOf(param.name) as Kind] },
            onlyIf,
            expect: { kind: 'invalid_field', field: param.name, emptyListAllowed: isList },
          });
      }
    }

    // Free-text filters get A's value of the field of that name (a branch, an automation id):
    // B's list must come back empty.
    if (isList)
      for (const param of queryParams) {
        const value = aValues.get(param.name);
        const schema = resolve(param.schema);
        if (value === undefined || schema.enum || schema.format) continue;
        probes.push({
          route,
          label: `query ${param.name} = A’s value`,
          url: bPath,
          query: { [param.name]: value },
          expect: { kind: 'empty_or_invalid' },
        });
      }

    // A route with nothing of A's to put in it is still called as B: its answer (a list, the
    // caller's organization) must hold nothing of A.
    if (!probes.length)
      probes.push({
        route,
        label: 'plain call as B',
        url: route.path,
        body: baseBody,
        expect: { kind: 'no_server_error' },
      });
    return probes;
  }

  async function send(probe: Probe, key: string): Promise<Response> {
    const method = probe.route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let request = t.http[method](probe.url).set(withKey(key));
    if (probe.query) request = request.query(probe.query);
    if (probe.contentType) request = request.set('Content-Type', probe.contentType);
    if (probe.body !== undefined && probe.route.method !== 'GET')
      return request.send(probe.body as object);
    return request;
  }

  /** Creates an organization with one of every resource, its strings marked with `marker`. */
  async function buildTenant(marker: string, receiverBase: string): Promise<Tenant> {
    const { org, key } = await createTenant(t, [...SCOPES], {
      plan: 'enterprise',
      monthly_call_limit: 1_000_000,
      name: `${marker} organization`,
    });
    const project = await createProject(t, org.id, {
      name: `${marker} project`,
      key: `K${marker}`,
      description: `${marker} description`,
    });
    const testCase = await createTestCase(t, project.id, {
      title: `${marker} case`,
      automation_id: `${marker}.case`,
      section: `${marker} section`,
    });
    const release = await createRelease(t, project.id, {
      name: `${marker} release`,
      version: `${marker}`,
    });
    const receiverUrl = `${receiverBase}/${marker}`;
    const webhook = await t.http
      .post('/api/v1/webhooks')
      .set(withKey(key))
      .send({ url: receiverUrl, events: ['*'], description: `${marker} webhook` });
    expect(webhook.status).toBe(201);
    const build = await t.http
      .post('/api/v1/builds')
      .set(withKey(key))
      .send({
        name: `${marker} build`,
        build_number: marker,
        commit_sha: marker,
        branch: `${marker}-branch`,
        repo_url: `https://example.com/${marker}.git`,
        project_id: project.id,
        release_id: release.id,
      });
    expect(build.status).toBe(201);
    const run = await t.http
      .post('/api/v1/testruns')
      .set(withKey(key))
      .send({
        project_id: project.id,
        name: `${marker} run`,
        build_id: build.body.id,
        release_id: release.id,
        test_case_ids: [testCase.id],
      });
    expect(run.status).toBe(201);
    const baselineRun = await t.http
      .post('/api/v1/testruns')
      .set(withKey(key))
      .send({ project_id: project.id, name: `${marker} baseline run` });
    expect(baselineRun.status).toBe(201);
    const results = await t.http
      .post(`/api/v1/testruns/${run.body.id}/results`)
      .set(withKey(key))
      .send({
        results: [
          {
            test_case_id: testCase.id,
            status: 'failed',
            message: `${marker} message`,
            defects: [`${marker}-1`],
          },
          { automation_id: `${marker}.auto`, title: `${marker} auto`, status: 'passed' },
        ],
      });
    expect(results.status).toBe(201);
    const bytes = Buffer.from(`${marker} screenshot`);
    const attachment = await t.http
      .post(`/api/v1/testruns/${run.body.id}/attachments`)
      .set(withKey(key))
      .send({
        attachments: [
          {
            test_case_id: testCase.id,
            name: `${marker}.png`,
            content_type: 'image/png',
            size: bytes.length,
            sha256: createHash('sha256').update(bytes).digest('hex'),
          },
        ],
      });
    expect(attachment.status).toBe(201);
    const { pathname, search } = new URL(attachment.body.data[0].upload.url);
    const upload = await t.http.put(`${pathname}${search}`).set(HTTPS).send(bytes);
    expect(upload.status).toBe(200);
    // The webhook's deliveries come from the worker's relay: wait until every event of the
    // organization is relayed and delivered, so nothing of it moves during the walk.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [state] = await db.query(
        `SELECT (SELECT count(*) FROM domain_event WHERE organization_id = $1 AND relayed_at IS NULL)::int AS unrelayed,
                (SELECT count(*) FROM webhook_delivery WHERE organization_id = $1 AND status = 'pending')::int AS pending,
                (SELECT count(*) FROM webhook_delivery WHERE organization_id = $1)::int AS deliveries`,
        [org.id],
      );
      if (state.unrelayed === 0 && state.pending === 0 && state.deliveries > 0) break;
      if (Date.now() > deadline)
        throw new Error(`deliveries did not settle: ${JSON.stringify(state)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const [delivery] = (
      await t.http.get(`/api/v1/webhooks/${webhook.body.id}/deliveries`).set(withKey(key))
    ).body.data as { id: string }[];
    return {
      marker,
      orgId: org.id,
      key,
      webhookSecret: webhook.body.secret,
      receiverUrl,
      ids: {
        organization: org.id,
        project: project.id,
        testcase: testCase.id,
        release: release.id,
        build: build.body.id,
        testrun: run.body.id,
        baselinerun: baselineRun.body.id,
        result: results.body.data[0].id,
        webhook: webhook.body.id,
        delivery: delivery.id,
        attachment: attachment.body.data[0].id,
      },
    };
  }

  /**
   * What `tenant` reads of itself through the API: every GET route of the walk, filled with its
   * own ids (booleans such as include_history on, so history is compared too). The usage
   * counter of /organizations moves with these very reads and is left out.
   */
  async function readAll(tenant: Tenant): Promise<Record<string, unknown>> {
    const reads: Record<string, unknown> = {};
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const query: Record<string, string> = { limit: '100' };
      for (const param of route.operation?.parameters ?? [])
        if (param.in === 'query' && resolve(param.schema).type === 'boolean')
          query[param.name] = 'true';
      if (!route.operation?.parameters?.some((p) => p.name === 'limit')) delete query.limit;
      const url = fillPath(route.path, (_name, kind) => tenant.ids[kind]);
      const res = await t.http.get(url).set(withKey(tenant.key)).query(query);
      reads[url] = JSON.parse(
        JSON.stringify(res.body, (key, value) => (key === 'calls_this_period' ? undefined : value)),
      );
      // The gate is evaluated when asked (CONTRACT §12): its moment differs on every read.
      if (url.endsWith('/gate')) delete (reads[url] as { evaluated_at?: string }).evaluated_at;
    }
    return reads;
  }

  /**
   * A digest of every row of A in every table: by its organization_id, the organization row
   * itself, and rows hanging off A's runs by test_run_id. A new table with organization_id is
   * included without a change here.
   */
  async function snapshotDb(orgId: string): Promise<Record<string, string>> {
    const columns: { table_name: string; column_name: string }[] = await db.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND column_name IN ('organization_id', 'test_run_id', 'id')`,
    );
    const byTable = new Map<string, Set<string>>();
    for (const c of columns) {
      if (!byTable.has(c.table_name)) byTable.set(c.table_name, new Set());
      byTable.get(c.table_name)?.add(c.column_name);
    }
    const digest: Record<string, string> = {};
    for (const [table, has] of byTable) {
      let where: string;
      if (has.has('organization_id')) where = 'organization_id = $1';
      else if (table === 'organization') where = 'id = $1';
      else if (has.has('test_run_id'))
        where = 'test_run_id IN (SELECT id FROM test_run WHERE organization_id = $1)';
      else continue;
      const [row] = await db.query(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS hash
           FROM "${table}" t WHERE ${where}`,
        [orgId],
      );
      digest[table] = `${row.n} ${row.hash}`;
    }
    return digest;
  }

  beforeAll(async () => {
    t = await startApp({
      APP_ROLE: 'all',
      ATTACHMENT_DIR: mkdtempSync(join(tmpdir(), 'tm-isolation-')),
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      WEBHOOK_TIMEOUT_MS: '2000',
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    db = t.app.get(DataSource);
    receiver = new Receiver();
    const receiverBase = await receiver.start();
    a = await buildTenant(MARKER_A, receiverBase);
    b = await buildTenant(MARKER_B, receiverBase);

    routes = classify(discoverRoutes());
    const aReads = await readAll(a);
    const bText = JSON.stringify(await readAll(b)).toLowerCase();
    // A's fingerprint: its marker, secrets and every UUID in its own reads, less any UUID B
    // sees in its own reads too (a constant of the document, not A's data).
    const aUuids = new Set(JSON.stringify(aReads).toLowerCase().match(UUID_PATTERN) ?? []);
    fingerprint = [
      MARKER_A,
      a.key,
      a.webhookSecret,
      ...[...aUuids].filter((id) => !bText.includes(id)),
    ].map((s) => s.toLowerCase());
    // A's free-text values by field name, for filters such as branch or automation_id.
    aValues = new Map();
    JSON.stringify(aReads, (key, value) => {
      if (typeof value === 'string' && value.includes(MARKER_A) && !aValues.has(key))
        aValues.set(key, value);
      return value;
    });

    apiBefore = aReads;
    dbBefore = await snapshotDb(a.orgId);
    for (const route of routes)
      for (const probe of probesOf(route)) {
        const control = probe.onlyIf && answers.get(probe.onlyIf);
        if (control && (control.status < 200 || control.status > 299)) {
          notApplicable.push(probe);
          continue;
        }
        const res = await send(probe, b.key);
        answers.set(probe, res);
        sent.push({ probe, res });
      }
    // Events B's requests caused are relayed asynchronously; once they all are, a delivery
    // wrongly made to A's subscription would be in the database.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM domain_event WHERE relayed_at IS NULL`,
      );
      if (n === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    dbAfter = await snapshotDb(a.orgId);
    apiAfter = await readAll(a);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const describeProbe = ({ probe, res }: { probe: Probe; res: Response }) =>
    `${probe.route.method} ${probe.route.path} — ${probe.label}: ${res.status} ${res.text.slice(0, 300)}`;

  it('knows how to fill every public route of the route table, skipping only the internal API', () => {
    expect(unfillable).toEqual([]);
    expect(routes.length).toBeGreaterThan(15);
    expect(skipped.length).toBeGreaterThan(0);
    for (const { reason } of skipped) expect(reason).toMatch(/internal API|signed link/);
    // Every walked route was sent at least once.
    const walked = new Set(sent.map(({ probe }) => `${probe.route.method} ${probe.route.path}`));
    expect(routes.filter((r) => !walked.has(`${r.method} ${r.path}`))).toEqual([]);
  });

  it('answers 404 not_found for every path holding an id of A', () => {
    const wrong = sent
      .filter(({ probe }) => probe.expect.kind === 'not_found')
      .filter(({ res }) => res.status !== 404 || res.body.error !== 'not_found');
    expect(wrong.map(describeProbe)).toEqual([]);
    expect(sent.filter(({ probe }) => probe.expect.kind === 'not_found').length).toBeGreaterThan(
      10,
    );
  });

  it('answers 400 naming the field for A’s ids in a body or query, or an empty list for a filter', () => {
    const probes = sent.filter(({ probe }) => probe.expect.kind === 'invalid_field');
    const wrong = probes.filter(({ probe, res }) => {
      const expected = probe.expect as { field: string; emptyListAllowed: boolean };
      if (res.status === 400)
        return (
          res.body.error !== 'invalid_request' ||
          withoutIndexes(String(res.body.details?.field)) !== withoutIndexes(expected.field)
        );
      return !(expected.emptyListAllowed && res.status === 200 && res.body.data?.length === 0);
    });
    expect(wrong.map(describeProbe)).toEqual([]);
    expect(probes.length).toBeGreaterThan(10);
  });

  it('filters B’s lists by A’s free-text values to nothing', () => {
    const wrong = sent
      .filter(({ probe }) => probe.expect.kind === 'empty_or_invalid')
      .filter(
        ({ res }) => !(res.status === 400 || (res.status === 200 && res.body.data?.length === 0)),
      );
    expect(wrong.map(describeProbe)).toEqual([]);
  });

  it('accepts B’s own ids where A’s were refused, so the refusals are the tenant check’s', () => {
    const wrong = sent
      .filter(({ probe }) => probe.expect.kind === 'ok')
      // An attachment's content answers with a redirect to its signed link.
      .filter(({ res }) => (res.status < 200 || res.status > 299) && res.status !== 302);
    expect(wrong.map(describeProbe)).toEqual([]);
    const failing = sent
      .filter(({ probe }) => probe.expect.kind === 'no_server_error')
      .filter(({ res }) => res.status >= 500);
    expect(failing.map(describeProbe)).toEqual([]);
  });

  it('never puts an id, name or secret of A in any response body to B', () => {
    const leaks = sent.flatMap((entry) => {
      const text = entry.res.text.toLowerCase();
      const found = fingerprint.filter((mark) => text.includes(mark));
      return found.length ? [`${describeProbe(entry)} — contains ${found.join(', ')}`] : [];
    });
    expect(leaks).toEqual([]);
    expect(fingerprint.length).toBeGreaterThan(10);
  });

  it('leaves every row and every API read of A unchanged by B’s writes with A’s ids', () => {
    expect(dbAfter).toEqual(dbBefore);
    expect(Object.keys(dbBefore)).toEqual(
      expect.arrayContaining(['build', 'test_run', 'test_result', 'webhook_delivery']),
    );
    expect(apiAfter).toEqual(apiBefore);
  });
});
