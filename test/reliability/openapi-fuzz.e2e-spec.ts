import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import { SCOPES } from '../../src/routes/scopes.js';
import { createProject, createRelease, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { createRun, submitResults } from '../factories/runs.js';
import { listenOnLoopback, OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';
import { Receiver } from '../support/receiver.js';
import { ajv, validatorFor } from '../support/response-validator.js';
import {
  materialize,
  operationsOf,
  requestArbitrary,
  type FuzzRequest,
  type IdPools,
  type OpenApiDocument,
} from './openapi-arbitraries.js';

/**
 * R5: every operation of openapi.json gets generated requests, valid by the document and then
 * mutated. No answer may be a 5xx, every error must be the contract's envelope, every 2xx must
 * validate against the document. FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH come from `npm run fuzz`.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6000);
const SEED = Number(process.env.FUZZ_SEED ?? 20260501);
const PATH = process.env.FUZZ_PATH || undefined;
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 4);

const document: OpenApiDocument = JSON.parse(readFileSync('openapi.json', 'utf8'));
const envelopeSchema = document.components.schemas.ErrorEnvelopeDto;
const KNOWN_CODES = new Set(envelopeSchema.properties?.error.enum as string[]);
/** The codes each status may carry (CONTRACT §2). */
const CODES_BY_STATUS: Record<number, string[]> = {
  400: ['invalid_request'],
  401: ['unauthorized'],
  403: ['insufficient_scope', 'plan_required', 'https_required', 'plan_limit_reached'],
  404: ['not_found'],
  409: ['conflict', 'idempotency_key_in_use'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  422: ['idempotency_key_reused'],
  429: ['rate_limit_exceeded'],
  // A request line and headers over Node's 16 KiB (answered before the application).
  431: ['invalid_request'],
};

/** The documented path a request path reaches, as Express routes it (a trailing slash is ignored). */
function routeOf(method: string, url: string): string | undefined {
  const pathname = url.split('?')[0].replace(/\/$/, '');
  const segments = pathname.split('/');
  return Object.keys(document.paths).find((template) => {
    if (!(method.toLowerCase() in document.paths[template])) return false;
    const parts = template.split('/');
    return (
      parts.length === segments.length &&
      parts.every((part, i) => (part.startsWith('{') ? segments[i] !== '' : part === segments[i]))
    );
  });
}

// ---------------------------------------------------------------------------------------
// Findings

interface Sent {
  index: number;
  request: FuzzRequest;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

interface Failure {
  kind: '5xx' | 'envelope' | 'schema' | 'transport';
  /** What makes two failures the same bug (for de-duplication). */
  signature: string;
  detail: string;
  sent: Sent;
}

const excerpt = (text: string, max = 300) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

/** A curl line that sends the same request to a local server (plain HTTP through the proxy). */
function reproduction(sent: Sent): string {
  const { request } = sent;
  const parts = [
    `curl -sk -X ${request.method} 'https://localhost:3000${excerpt(request.url, 400)}'`,
  ];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = name === 'Authorization' ? value.replace(/svc_live_\w+/, '$KEY') : value;
    parts.push(`-H '${name}: ${excerpt(shown, 80)}'`);
  }
  if (request.body) {
    const { payload, contentType } = materialize(request.body);
    if (contentType) parts.push(`-H 'Content-Type: ${contentType}'`);
    else parts.push(`-H 'Content-Type:'`);
    parts.push(
      payload.length > 400 || request.body.kind === 'bytes'
        ? `--data-binary @body (${request.body.kind}: ${excerpt(JSON.stringify(request.body), 200)})`
        : `--data-binary ${JSON.stringify(payload.toString())}`,
    );
  }
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------

describe('OpenAPI fuzzing (R5)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let baseUrl: { host: string; port: number };
  let hookUrl: string;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  /** Causes of 500s, by request id, from the exception filter's log line. */
  const causes = new Map<string, string>();
  const originalError = Logger.prototype.error;

  beforeAll(async () => {
    // The exception filter logs the cause of a 500 (a schema mismatch found by
    // ResponseValidationModule, a database error...) with the request id; the 500's body
    // carries only the id, so the cause is kept here to make the failure attributable.
    Logger.prototype.error = function (this: Logger, message: unknown, ...rest: unknown[]) {
      const entry = message as { requestId?: string; err?: unknown };
      if (entry && typeof entry === 'object' && entry.requestId)
        causes.set(
          entry.requestId,
          entry.err instanceof Error
            ? `${entry.err.name}: ${entry.err.message}`
            : String(entry.err),
        );
      return originalError.call(this, message, ...rest);
    } as typeof originalError;

    receiver = new Receiver();
    hookUrl = await receiver.start();
    const settings = {
      // Far over what the fuzzing sends, so 429s do not hide what lies behind the limits.
      RATE_LIMIT_PER_MINUTE: '1000000',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    };
    t = await startApp(settings);
    baseUrl = { host: '127.0.0.1', port: await listenOnLoopback(t) };
  });

  afterAll(async () => {
    Logger.prototype.error = originalError;
    agent.destroy();
    await t?.close();
    await receiver?.stop();
  });

  /** Real resources of every kind, so that generated ids are real part of the time. */
  async function resources(): Promise<{ ids: IdPools; key: string; basicKey: string }> {
    const tenant = await createTenant(t, [...SCOPES], {
      plan: 'enterprise',
      monthly_call_limit: 1_000_000_000,
    });
    const { key } = tenant;
    const project = await createProject(t, tenant.org.id);
    const otherProject = await createProject(t, tenant.org.id);
    const release = await createRelease(t, project.id);
    const doneRelease = await createRelease(t, project.id);
    const cases = [];
    for (let i = 0; i < 4; i++)
      cases.push(await createTestCase(t, project.id, { automation_id: `fuzz.case${i}` }));
    const builds = [];
    for (const body of [{ name: 'queued' }, { name: 'assigned', release_id: release.id }]) {
      const res = await t.http.post('/api/v1/builds').set(withKey(key)).send(body);
      if (res.status >= 300) throw new Error(`build not created: ${res.status} ${res.text}`);
      builds.push(res.body.id as string);
    }
    const run = await createRun(t, key, project.id, { release_id: release.id });
    const completedRun = await createRun(t, key, project.id);
    const submitted = await submitResults(t, key, run.id, [
      { test_case_id: cases[0].id, status: 'passed' },
      { automation_id: 'fuzz.case1', status: 'failed', message: 'boom' },
    ]);
    if (submitted.status !== 201) throw new Error(`results: ${submitted.status} ${submitted.text}`);
    await submitResults(
      t,
      key,
      completedRun.id,
      [{ test_case_id: cases[2].id, status: 'passed' }],
      true,
    );
    const hook = await t.http
      .post('/api/v1/webhooks')
      .set(withKey(key))
      .send({ url: hookUrl, events: ['release.released.v1'] });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${hook.text}`);

    // A delivery to redeliver: the relay runs in the worker role only, so one runs briefly.
    const worker = await startApp({ APP_ROLE: 'worker', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const deliveries: string[] = [];
    try {
      await t.http
        .patch(`/internal/v1/releases/${doneRelease.id}`)
        .set(OPERATOR)
        .send({ status: 'completed' })
        .expect(200);
      const deadline = Date.now() + 15_000;
      while (deliveries.length === 0 && Date.now() < deadline) {
        const list = await t.http
          .get(`/api/v1/webhooks/${hook.body.id}/deliveries`)
          .set(withKey(key));
        deliveries.push(...(list.body.data ?? []).map((d: { id: string }) => d.id));
        if (deliveries.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await worker.close();
    }

    // Another organization's resources: must look unknown to the fuzzing tenant.
    const foreign = await createTenant(t, [...SCOPES], { plan: 'enterprise' });
    const foreignProject = await createProject(t, foreign.org.id);
    const foreignRun = await createRun(t, foreign.key, foreignProject.id);
    const basic = await createTenant(t, [...SCOPES], { plan: 'basic' });

    return {
      key,
      basicKey: basic.key,
      ids: {
        own: {
          organization: [tenant.org.id],
          project: [project.id, otherProject.id],
          release: [release.id, doneRelease.id],
          case: cases.map((c) => c.id),
          build: builds,
          run: [run.id, completedRun.id],
          webhook: [hook.body.id],
          delivery: deliveries,
        },
        foreign: [foreign.org.id, foreignProject.id, foreignRun.id],
        urls: [hookUrl],
      },
    };
  }

  function send(request: FuzzRequest): Promise<Omit<Sent, 'index' | 'request'>> {
    const body = request.body ? materialize(request.body) : undefined;
    const headers: Record<string, string> = { 'X-Forwarded-Proto': 'https', ...request.headers };
    if (body) {
      headers['Content-Length'] = String(body.payload.length);
      if (body.contentType !== undefined) headers['Content-Type'] = body.contentType;
    }
    return new Promise((resolve, reject) => {
      // The path is given as is: a URL string would be normalized (`/builds/..` → `/`).
      const req = httpRequest(
        {
          host: baseUrl.host,
          port: baseUrl.port,
          path: request.url,
          method: request.method,
          headers,
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString(),
            }),
          );
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', reject);
      req.end(body?.payload);
    });
  }

  /** What is wrong with one answer, if anything. */
  function check(sent: Sent): Omit<Failure, 'sent'> | null {
    const { request, status, headers, text } = sent;
    const route = routeOf(request.method, request.url);
    const where = route ? `${request.method} ${route}` : request.operation;
    if (status >= 500) {
      let requestId = '';
      try {
        requestId = JSON.parse(text).details?.request_id ?? '';
      } catch {
        // Not even JSON: the envelope check would say so; the status says enough here.
      }
      const cause = causes.get(requestId) ?? excerpt(text, 200);
      const kind = cause.startsWith('Error: OpenAPI:') ? 'schema' : '5xx';
      return {
        kind,
        // Without the route: one bug often shows on many routes, which the summary lists.
        signature: `${kind} ${status} ${cause.replace(/[0-9a-f-]{36}|\d+/g, '#').slice(0, 160)}`,
        detail: `${status}: ${cause}`,
      };
    }
    const json = String(headers['content-type'] ?? '').startsWith('application/json');
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (status >= 200 && status < 300) {
      if (!route)
        return {
          kind: 'schema',
          signature: `schema ${request.method} ${request.operation} ${status} on an undocumented route`,
          detail: `${status} ${excerpt(text, 200)}`,
        };
      const operation = document.paths[route][request.method.toLowerCase()];
      if (!(String(status) in operation.responses))
        return {
          kind: 'schema',
          signature: `schema ${where} undocumented ${status}`,
          detail: `${status} ${excerpt(text, 200)}`,
        };
      if (status === 204) return null;
      if (!json || parsed === undefined)
        return {
          kind: 'schema',
          signature: `schema ${where} ${status} not JSON`,
          detail: `${headers['content-type']}: ${excerpt(text, 200)}`,
        };
      const validate = validatorFor(request.method.toLowerCase(), route, status);
      if (validate && !validate(parsed))
        return {
          kind: 'schema',
          signature: `schema ${where} ${status} ${ajv.errorsText(validate.errors).slice(0, 160)}`,
          detail: ajv.errorsText(validate.errors),
        };
      return null;
    }
    // 308 from GET /openapi is the only documented redirect.
    if (status === 308 && route === '/api/v1/openapi') return null;
    const envelope = parsed as { error?: unknown; message?: unknown; details?: unknown };
    const problems: string[] = [];
    if (!json) problems.push(`content type ${headers['content-type']}`);
    if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope))
      problems.push('body is not an object');
    else {
      const keys = Object.keys(envelope).sort().join(',');
      if (keys !== 'details,error,message') problems.push(`keys ${keys}`);
      if (typeof envelope.error !== 'string' || !KNOWN_CODES.has(envelope.error))
        problems.push(`unknown error ${JSON.stringify(envelope.error)}`);
      else if (!(CODES_BY_STATUS[status] ?? []).includes(envelope.error))
        problems.push(`${envelope.error} with status ${status}`);
      if (typeof envelope.message !== 'string' || envelope.message === '')
        problems.push('message not a non-empty string');
      const details = envelope.details as Record<string, unknown> | null;
      if (!details || typeof details !== 'object' || Array.isArray(details))
        problems.push('details not an object');
      else if (status === 400 && typeof details.field !== 'string')
        problems.push('400 without details.field');
    }
    if (!headers['x-request-id']) problems.push('no X-Request-Id');
    if (problems.length === 0) return null;
    return {
      kind: 'envelope',
      signature: `envelope ${where} ${status} ${problems.join('; ')}`,
      detail: `${problems.join('; ')}: ${excerpt(text, 200)}`,
    };
  }

  it(
    'answers every generated request without a 5xx, with the error envelope or a documented body',
    async () => {
      const { ids, key, basicKey } = await resources();
      const arbitrary = requestArbitrary(document, ids, { key, basicKey });
      const sentLog: Sent[] = [];
      const failures: Failure[] = [];
      const statuses = new Map<string, Map<number, number>>();
      const inFlight = new Set<Promise<void>>();
      // With a path, fast-check starts at that run: the counter names runs as fast-check does.
      let index = PATH ? Number(PATH.split(':')[0]) : 0;
      const started = Date.now();

      const run = async (request: FuzzRequest, at: number) => {
        let sent: Sent;
        try {
          sent = { index: at, request, ...(await send(request)) };
        } catch (error) {
          sent = { index: at, request, status: 0, headers: {}, text: String(error) };
          failures.push({
            kind: 'transport',
            signature: `transport ${request.operation} ${String(error).slice(0, 100)}`,
            detail: String(error),
            sent,
          });
          return;
        }
        sentLog.push(sent);
        const byStatus = statuses.get(request.operation) ?? new Map<number, number>();
        byStatus.set(sent.status, (byStatus.get(sent.status) ?? 0) + 1);
        statuses.set(request.operation, byStatus);
        const failure = check(sent);
        if (failure) failures.push({ ...failure, sent });
      };

      // The property never fails by itself: every answer is checked and collected, so one run
      // reports all distinct failures instead of stopping (and shrinking) at the first. Runs
      // overlap up to CONCURRENCY requests, as clients do.
      await fc.assert(
        fc.asyncProperty(arbitrary, async (request) => {
          const task = run(request, index++).finally(() => inFlight.delete(task));
          inFlight.add(task);
          if (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
          return true;
        }),
        { seed: SEED, numRuns: PATH ? 1 : RUNS, path: PATH },
      );
      await Promise.all(inFlight);
      const seconds = (Date.now() - started) / 1000;

      const distinct = new Map<
        string,
        { failure: Failure; count: number; operations: Set<string> }
      >();
      for (const failure of failures) {
        const seen = distinct.get(failure.signature) ?? {
          failure,
          count: 0,
          operations: new Set(),
        };
        seen.count++;
        seen.operations.add(failure.sent.request.operation);
        distinct.set(failure.signature, seen);
      }
      const total = new Map<number, number>();
      for (const byStatus of statuses.values())
        for (const [status, count] of byStatus) total.set(status, (total.get(status) ?? 0) + count);
      const lines = [
        `OpenAPI fuzz: seed ${SEED}${PATH ? ` path ${PATH}` : ''}, ${sentLog.length} requests in ${seconds.toFixed(1)} s over ${operationsOf(document).length} operations`,
        `statuses: ${[...total]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
        ...[...statuses].sort().map(
          ([operation, byStatus]) =>
            `  ${operation}: ${[...byStatus]
              .sort((a, b) => a[0] - b[0])
              .map(([s, n]) => `${s}×${n}`)
              .join(' ')}`,
        ),
        `5xx answers: ${failures.filter((f) => f.kind === '5xx').length}; distinct failures: ${distinct.size}`,
        ...[...distinct.values()].map(
          ({ failure, count, operations }) =>
            `\n[${failure.kind}] ×${count} ${failure.signature}\n  ${failure.detail}\n  operations: ${[...operations].sort().join(', ')}\n  first seen: ${failure.sent.request.operation}, mutation: ${failure.sent.request.mutation}\n  replay: npm run fuzz -- --seed ${SEED} --path ${failure.sent.index}\n  ${reproduction(failure.sent)}`,
        ),
      ];
      process.stdout.write(`\n${lines.join('\n')}\n`);

      expect(sentLog.length).toBeGreaterThanOrEqual(PATH ? 1 : Math.min(RUNS, 2000));
      if (distinct.size > 0)
        throw new Error(
          `${distinct.size} distinct failures in ${failures.length} answers (seed ${SEED}):\n${[...distinct.keys()].join('\n')}`,
        );
    },
    Math.max(300_000, RUNS * 200),
  );
});
