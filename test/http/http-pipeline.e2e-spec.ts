import { gzipSync } from 'node:zlib';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsString, ValidateNested } from 'class-validator';
import { Public } from '../../src/routes/access.decorators.js';
import { createTenant } from '../factories/organizations.js';
import { HTTPS, startApp, withKey, type TestApp } from '../support/app.js';

class ProbeItem {
  @IsIn(['passed', 'failed'])
  status!: string;
}

class ProbeBody {
  @IsString()
  name!: string;

  @ValidateNested({ each: true })
  @Type(() => ProbeItem)
  results!: ProbeItem[];
}

/** Routes that exist only in this test, to drive the pipeline's error paths. */
@Public()
@Controller('pipeline-probe')
class ProbeController {
  @Get('explode')
  explode(): never {
    throw new Error('database password is hunter2 at /srv/secret.ts:42');
  }

  @Post('echo')
  echo(@Body() body: ProbeBody): ProbeBody {
    return body;
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('HTTP pipeline', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({}, [ProbeModule]);
  });
  afterAll(() => t.close());

  describe('HTTPS enforcement', () => {
    it('refuses plain HTTP to the API with 403 https_required before anything else', async () => {
      const res = await t.http.get('/api/v1/organizations').set('Authorization', 'nonsense');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'https_required',
        message: expect.any(String),
        details: {},
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it('refuses plain HTTP to the internal API too', async () => {
      const res = await t.http.get('/internal/v1/organizations');
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('https_required');
    });

    it('accepts X-Forwarded-Proto: https from a trusted proxy and sets HSTS', async () => {
      const res = await t.http.get('/api/v1/no-such-route').set(HTTPS);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('not_found');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    });

    it('serves probes over plain HTTP', async () => {
      for (const path of ['/healthz', '/HEALTHZ', '/healthz/']) {
        const res = await t.http.get(path);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ status: 'ok' });
      }
    });

    it('refuses plain HTTP whatever the case, slashes or encoding of an API path', async () => {
      // Express routes case-insensitively and some of these spellings reach a handler (with a
      // valid key `/API/v1/organizations` answered 200 over plain HTTP when the check compared
      // prefixes case-sensitively); none may be served without HTTPS.
      const { key } = await createTenant(t);
      const secured = await t.http.get('/API/v1/organizations').set(withKey(key));
      expect(secured.status).toBe(200);
      for (const path of [
        '/API/v1/organizations',
        '/Api/V1/builds',
        '/api//v1/builds',
        '//api/v1/builds',
        '/%2Fapi/v1/builds',
        '/%61pi/v1/builds',
        '/INTERNAL/v1/organizations',
        '/Internal/V1/organizations',
        '/nowhere',
      ]) {
        const res = await t.http.get(path).set('Authorization', `Bearer ${key}`);
        expect({ path, status: res.status, error: res.body.error }).toEqual({
          path,
          status: 403,
          error: 'https_required',
        });
      }
    });
  });

  describe('error envelope', () => {
    it('answers unknown routes, other versions and unknown methods with 404 not_found', async () => {
      for (const path of ['/api/v1/nope', '/api/v2/builds', '/nowhere']) {
        const res = await t.http.get(path).set(HTTPS);
        expect(res.status).toBe(404);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toEqual({ error: 'not_found', message: expect.any(String), details: {} });
      }
      const res = await t.http.delete('/api/v1/pipeline-probe/explode').set(HTTPS);
      expect(res.status).toBe(404);
    });

    it('answers a request line over 16 KiB in the envelope, with a request id', async () => {
      // Node's parser refuses it before Express sees it; it answered a bare 431.
      const res = await t.http.get(`/api/v1/builds?branch=${'a'.repeat(20_000)}`).set(HTTPS);
      expect(res.status).toBe(431);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
        details: { field: 'headers' },
      });
    });

    it('answers invalid JSON with 400 invalid_request naming the body', async () => {
      const res = await t.http
        .post('/api/v1/pipeline-probe/echo')
        .set(HTTPS)
        .set('Content-Type', 'application/json')
        .send('{"name": "x",');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details.field).toBe('body');
    });

    it('answers a body over 10 MiB with 413 payload_too_large', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024) });
      // A large body is read only with a valid credential.
      const { key } = await createTenant(t);
      const res = await t.http
        .post('/api/v1/pipeline-probe/echo')
        .set(withKey(key))
        .set('Content-Type', 'application/json')
        .send(big);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        error: 'payload_too_large',
        message: expect.any(String),
        details: { limit: 10 * 1024 * 1024 },
      });
    });

    it('answers a gzip body that inflates past 10 MiB with 413 naming the inflated size and the limit', async () => {
      const gz = gzipSync(JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }));
      const { key } = await createTenant(t);
      const res = await t.http
        .post('/api/v1/pipeline-probe/echo')
        .set(withKey(key))
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .serialize((body: unknown) => body as string)
        .send(gz);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        error: 'payload_too_large',
        message: expect.stringMatching(
          new RegExp(
            `^The request body inflates to more than 10485760 bytes \\(10 MiB\\), the limit, which applies to the inflated body: inflating stopped at \\d+ bytes, from ${gz.length} bytes sent gzip\\.`,
          ),
        ),
        details: { limit: 10 * 1024 * 1024 },
      });
    });

    it('answers a body that is not the gzip it says with 400 naming the body, not 500', async () => {
      const { key } = await createTenant(t);
      const res = await t.http
        .post('/api/v1/pipeline-probe/echo')
        .set(withKey(key))
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('{"name": "not gzip"}');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'invalid_request',
        message: 'The request body is not valid gzip data (Z_DATA_ERROR).',
        details: { field: 'body' },
      });
    });

    it('answers a body of another content type with 415 unsupported_media_type', async () => {
      const res = await t.http
        .post('/api/v1/pipeline-probe/echo')
        .set(HTTPS)
        .set('Content-Type', 'text/plain')
        .send('name=x');
      expect(res.status).toBe(415);
      expect(res.body.error).toBe('unsupported_media_type');
    });

    it('names the first offending field and lists every error, with array paths', async () => {
      const one = await t.http
        .post('/api/v1/pipeline-probe/echo')
        .set(HTTPS)
        .send({ name: 'x', results: [{ status: 'passed' }, { status: 'exploded' }] });
      expect(one.status).toBe(400);
      expect(one.body.details).toEqual({
        field: 'results[1].status',
        errors: [
          {
            field: 'results[1].status',
            message: expect.stringMatching(/^results\[1\]\.status must be one of/),
          },
        ],
      });

      const res = await t.http
        .post('/api/v1/pipeline-probe/echo')
        .set(HTTPS)
        .send({ name: 'x', results: [{ status: 'passed' }, { status: 'exploded' }], extra: 1 });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      const fields = res.body.details.errors.map((e: { field: string }) => e.field);
      expect(fields.sort()).toEqual(['extra', 'results[1].status']);
      expect(res.body.details.field).toBe(res.body.details.errors[0].field);
      expect(res.body.message).toBe(res.body.details.errors[0].message);
    });

    it('refuses JSON nested deeper than 64 levels with 400, in any encoding', async () => {
      // 1,500 levels in 3 KB overflowed the validation's recursion: a 500.
      const deep = (levels: number) =>
        `{"name":"x","results":${'['.repeat(levels)}${']'.repeat(levels)}}`;
      for (const [body, type] of [
        [Buffer.from(deep(1500)), 'application/json'],
        [Buffer.from(deep(64)), 'application/json'],
        [Buffer.from(deep(1500), 'utf16le'), 'application/json; charset=utf-16le'],
      ] as const) {
        const res = await t.http
          .post('/api/v1/pipeline-probe/echo')
          .set(HTTPS)
          .set('Content-Type', type)
          .serialize((raw: unknown) => raw as string)
          .send(body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid_request',
          message: expect.stringMatching(/deeper than 64 levels/),
          details: { field: 'body', errors: [{ field: 'body', message: expect.any(String) }] },
        });
      }
      // 63 levels inside the body's own object is 64 in all: allowed through to the handler.
      const allowed = await t.http
        .post('/api/v1/pipeline-probe/echo')
        .set(HTTPS)
        .set('Content-Type', 'application/json')
        .send(deep(63));
      expect(allowed.status).toBe(201);
    });

    it('refuses text PostgreSQL cannot hold in any JSON string, naming its field', async () => {
      // Sent as the bytes given (a Buffer would otherwise be serialized as JSON).
      const post = (body: string | Buffer, type = 'application/json') =>
        t.http
          .post('/api/v1/pipeline-probe/echo')
          .set(HTTPS)
          .set('Content-Type', type)
          .serialize((raw: unknown) => raw as string)
          .send(body);
      const nul = await post(JSON.stringify({ name: 'x', results: [{ status: 'pass\u0000' }] }));
      expect(nul.status).toBe(400);
      expect(nul.body.details.field).toBe('results[0].status');
      expect(nul.body.message).toMatch(/NUL/);

      const surrogate = await post('{"name": "x\\ud800", "results": []}');
      expect(surrogate.status).toBe(400);
      expect(surrogate.body.details.field).toBe('name');
      expect(surrogate.body.message).toMatch(/unpaired surrogate/);

      // In UTF-16 the escape's bytes differ from UTF-8's: such bodies are always checked.
      const utf16 = await post(
        Buffer.from('{"name": "x\\u0000", "results": []}', 'utf16le'),
        'application/json; charset=utf-16le',
      );
      expect(utf16.status).toBe(400);
      expect(utf16.body.details.field).toBe('name');

      // A field path longer than 200 characters is cut short.
      const long = 'k'.repeat(300);
      const deep = await post(`{"name": {"${long}": ["\\u0000"]}}`);
      expect(deep.status).toBe(400);
      expect(deep.body.details.field).toBe(`${`name.${long}`.slice(0, 200)}…`);
    });

    it('passes a valid body through', async () => {
      const body = { name: 'x', results: [{ status: 'passed' }] };
      const res = await t.http.post('/api/v1/pipeline-probe/echo').set(HTTPS).send(body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual(body);
    });

    it('answers an unexpected error with an opaque 500 that carries the request id', async () => {
      const res = await t.http
        .get('/api/v1/pipeline-probe/explode')
        .set(HTTPS)
        .set('X-Request-Id', 'trace-500.a_b');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: 'internal_error',
        message: expect.any(String),
        details: { request_id: 'trace-500.a_b' },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/hunter2|secret\.ts|at /);
    });
  });

  describe('request ids', () => {
    it('echoes a well-formed X-Request-Id', async () => {
      const res = await t.http.get('/healthz').set('X-Request-Id', 'abc-123_x.y');
      expect(res.headers['x-request-id']).toBe('abc-123_x.y');
    });

    it('replaces a malformed or overlong one with a generated id', async () => {
      for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
        const res = await t.http.get('/healthz').set('X-Request-Id', bad);
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });

  describe('metrics', () => {
    it('exposes request counts by route and status, and queue depths', async () => {
      await t.http.get('/healthz');
      const res = await t.http.get('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toMatch(
        /http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/,
      );
      expect(res.text).toMatch(/http_request_duration_seconds_bucket/);
      expect(res.text).toMatch(/queue_jobs\{queue="webhook-deliveries",state="waiting"\} \d+/);
    });
  });
});

describe('HTTP pipeline behind an untrusted peer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ TRUST_PROXY: '10.9.8.7' });
  });
  afterAll(() => t.close());

  it("ignores X-Forwarded-Proto from a peer that TRUST_PROXY doesn't list", async () => {
    const res = await t.http.get('/api/v1/organizations').set(HTTPS);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('https_required');
  });
});
