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
    fetch: async (request) => {
      bodies.push(await request.text());
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

const networkError = () =>
  Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });

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
      /Cannot reach the service at https:\/\/tm.example .*ECONNRESET.*5 attempts/,
    );
    expect(s.waits).toEqual([1000, 2000, 4000, 8000]);
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

  it('retries a 409 idempotency_key_in_use (another shard’s identical request is in flight)', async () => {
    const s = scripted([
      json(409, { error: 'idempotency_key_in_use', details: {} }),
      json(201, {}),
    ]);
    expect((await s.call()).status).toBe(201);
    expect(s.waits).toEqual([1000]);
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
