import { ReporterError } from './errors.js';
import { retryingFetch } from './http.js';

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

/** A retrying fetch over scripted answers; records the waits instead of sleeping. */
function scripted(answers: Array<Response | Error>) {
  const waits: number[] = [];
  const bodies: string[] = [];
  const send = retryingFetch({
    transport: async (outgoing) => {
      bodies.push(outgoing.body?.toString() ?? '');
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      if (next instanceof Error) throw next;
      return next;
    },
    sleep: async (ms) => void waits.push(ms),
    random: () => 0,
  });
  const call = () =>
    send(
      new Request('https://tm.example/api/v1/testruns', {
        method: 'POST',
        body: '{"name":"x"}',
        headers: { 'Idempotency-Key': 'k' },
      }),
    );
  return { call, waits, bodies };
}

const networkError = (code = 'ECONNRESET') => Object.assign(new Error(`connect ${code}`), { code });

describe('retrying fetch', () => {
  it('waits Retry-After after a 503 and sends the same body again', async () => {
    const s = scripted([
      json(503, { error: 'service_unavailable' }, { 'Retry-After': '2' }),
      json(201, { id: 1 }),
    ]);
    const response = await s.call();
    expect(response.status).toBe(201);
    expect(s.waits).toEqual([2000]);
    expect(s.bodies).toEqual(['{"name":"x"}', '{"name":"x"}']);
  });

  it('backs off 1, 2, 4, 8 s on network errors and gives up after 5 attempts', async () => {
    const s = scripted([
      networkError(),
      networkError(),
      networkError(),
      networkError(),
      networkError(),
    ]);
    await expect(s.call()).rejects.toThrow(
      /Cannot reach the service at https:\/\/tm.example .*ECONNRESET.*5 attempts; check TM_URL's host and port/,
    );
    expect(s.waits).toEqual([1000, 2000, 4000, 8000]);
  });

  it('fails at once when TM_URL names a host that does not exist', async () => {
    const s = scripted([networkError('ENOTFOUND'), json(201, {})]);
    await expect(s.call()).rejects.toThrow(
      'the host tm.example of TM_URL is not known (DNS: ENOTFOUND)',
    );
    expect(s.bodies).toHaveLength(1);
  });

  it('fails at once, naming NODE_EXTRA_CA_CERTS, when the TLS certificate is not trusted', async () => {
    const s = scripted([networkError('DEPTH_ZERO_SELF_SIGNED_CERT'), json(201, {})]);
    await expect(s.call()).rejects.toThrow(
      /https:\/\/tm.example \(TM_URL\): its TLS certificate is self-signed and not trusted here \(DEPTH_ZERO_SELF_SIGNED_CERT\)\. .*NODE_EXTRA_CA_CERTS/,
    );
    expect(s.bodies).toHaveLength(1);
    const wrongHost = scripted([networkError('ERR_TLS_CERT_ALTNAME_INVALID')]);
    await expect(wrongHost.call()).rejects.toThrow('its TLS certificate is not for this host name');
  });

  it('refuses answers that cannot be the service’s: a redirect, an HTML page, no JSON', async () => {
    const redirect = scripted([
      new Response(null, { status: 301, headers: { Location: 'https://tm.example/login' } }),
    ]);
    await expect(redirect.call()).rejects.toThrow(
      /was redirected \(301 to https:\/\/tm.example\/login\) from https:\/\/tm.example\/api\/v1\/testruns: TM_URL is not the service's API address/,
    );
    const html = (status: number) =>
      new Response('<html><body>Not here</body></html>', {
        status,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      });
    for (const status of [200, 404]) {
      await expect(scripted([html(status)]).call()).rejects.toThrow(
        `POST /api/v1/testruns answered ${status} with an HTML page, not the service's JSON, from https://tm.example/api/v1/testruns: TM_URL is not the service's API address`,
      );
    }
    const gateway = scripted(Array.from({ length: 5 }, () => html(502)));
    await expect(gateway.call()).rejects.toThrow(
      /\(5 attempts\) answered 502 with an HTML page.*a proxy in front of the service failed, or TM_URL/,
    );
    await expect(scripted([new Response('ok', { status: 200 })]).call()).rejects.toThrow(
      'answered 200 with text/plain',
    );
    // A proxy's own refusals after other calls went through: said as what they are.
    await expect(scripted([html(413)]).call()).rejects.toThrow(
      /answered 413 with an HTML page.*refused the request's size \(raise its body limit/,
    );
    await expect(scripted([html(401)]).call()).rejects.toThrow(
      /answered 401 with an HTML page.*wants credentials of its own \(TM_EXTRA_HEADERS\)/,
    );
    expect((await scripted([new Response(null, { status: 204 })]).call()).status).toBe(204);
  });

  it('retries a per-minute 429 after its Retry-After', async () => {
    const s = scripted([
      json(
        429,
        { error: 'rate_limit_exceeded', details: { window: 'minute', retry_after: 7 } },
        { 'Retry-After': '7' },
      ),
      json(201, {}),
    ]);
    expect((await s.call()).status).toBe(201);
    expect(s.waits).toEqual([7000]);
  });

  it('fails at once on a monthly-quota 429, naming the reset date', async () => {
    const s = scripted([
      json(429, {
        error: 'rate_limit_exceeded',
        message: 'Monthly limit reached',
        details: { window: 'month', limit: 1000, reset_at: '2026-12-01T00:00:00.000Z' },
      }),
      json(201, {}),
    ]);
    const failure = s.call();
    await expect(failure).rejects.toBeInstanceOf(ReporterError);
    await expect(failure).rejects.toThrow(
      /quota of 1000 calls .*resets at 2026-12-01T00:00:00.000Z/,
    );
    expect(s.bodies).toHaveLength(1);
    expect(s.waits).toEqual([]);
  });

  it('never retries another 4xx', async () => {
    const s = scripted([
      json(400, { error: 'invalid_request', details: { field: 'name' } }),
      json(201, {}),
    ]);
    expect((await s.call()).status).toBe(400);
    expect(s.bodies).toHaveLength(1);
  });

  it('polls from 100 ms on while another shard’s identical request is in flight (409 idempotency_key_in_use), apart from the 5 attempts', async () => {
    const inFlight = () => json(409, { error: 'idempotency_key_in_use', details: {} });
    const s = scripted([
      inFlight(),
      inFlight(),
      inFlight(),
      json(503, { error: 'service_unavailable' }),
      inFlight(),
      ...Array.from({ length: 8 }, inFlight),
      json(201, {}),
    ]);
    expect((await s.call()).status).toBe(201);
    expect(s.waits).toEqual([
      100, 200, 400, 1000, 800, 1600, 3200, 5000, 5000, 5000, 5000, 5000, 5000,
    ]);
    const conflict = scripted([json(409, { error: 'conflict', details: { reason: 'completed' } })]);
    expect((await conflict.call()).status).toBe(409);
  });

  it('gives up on a 5xx after 5 attempts with the last answer', async () => {
    const s = scripted(
      Array.from({ length: 5 }, () => json(500, { error: 'internal_error', message: 'boom' })),
    );
    await expect(s.call()).rejects.toThrow(
      /POST \/api\/v1\/testruns \(5 attempts\) answered 500 internal_error: boom/,
    );
    expect(s.waits).toEqual([1000, 2000, 4000, 8000]);
  });
});
