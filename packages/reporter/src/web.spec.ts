import { LightHeaders, LightRequest, LightResponse } from './web.js';

/** The name of the error `make` throws (by name: node's errors come from another realm). */
function thrown(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    return (error as Error).name;
  }
  return 'nothing';
}

describe("web.ts: fetch's Headers, Request and Response without undici", () => {
  it('headers behave as fetch’s Headers: case-insensitive, appended values joined, sorted', () => {
    const init = { 'X-Key': ' k1 ', Accept: 'application/json', 'idempotency-key': 'a' };
    const light = new LightHeaders(init);
    const fetchs = new Headers(init);
    for (const h of [light, fetchs]) {
      h.append('x-key', 'k2');
      h.set('ACCEPT', 'text/plain');
      h.delete('Idempotency-Key');
    }
    expect([...light]).toEqual([...fetchs]);
    expect([...light]).toEqual([
      ['accept', 'text/plain'],
      ['x-key', 'k1, k2'],
    ]);
    expect([light.get('X-KEY'), light.get('missing'), light.has('Accept')]).toEqual([
      'k1, k2',
      null,
      true,
    ]);
    expect(Object.fromEntries(new LightHeaders(light))).toEqual(Object.fromEntries(fetchs));
    expect([...new LightHeaders([['Location', '/x']]).keys()]).toEqual(['location']);
  });

  it('refuses what fetch’s Headers refuses: a bad name, a line break in a value', () => {
    const refused: Record<string, string>[] = [{ 'bad name': 'x' }, { ok: 'a\r\nInjected: 1' }];
    for (const init of refused) {
      expect(thrown(() => new Headers(init))).toBe('TypeError');
      expect(thrown(() => new LightHeaders(init))).toBe('TypeError');
    }
  });

  it('a request has an absolute URL, its method, headers and body', async () => {
    const bytes = Buffer.from('<testsuite/>');
    const request = new LightRequest('https://tm.example/api/v1/results/ingest?test_run_id=1', {
      method: 'post',
      headers: new LightHeaders({ 'Content-Type': 'application/xml' }),
      body: bytes.subarray(0, 5),
    });
    expect([request.url, request.method, request.headers.get('content-type')]).toEqual([
      'https://tm.example/api/v1/results/ingest?test_run_id=1',
      'POST',
      'application/xml',
    ]);
    expect(Buffer.from(await request.arrayBuffer()).toString()).toBe('<test');
    expect(thrown(() => new LightRequest('/relative'))).toBe('TypeError');
    // As fetch's Request: a string body without a Content-Type is text.
    const text = new LightRequest('https://tm.example/x', { method: 'POST', body: 'hi' });
    expect(text.headers.get('content-type')).toBe(
      new Request('https://tm.example/x', { method: 'POST', body: 'hi' }).headers.get(
        'content-type',
      ),
    );
    expect(await text.text()).toBe('hi');
    expect(new LightRequest('https://tm.example/x').body).toBeNull();
  });

  it('a response reads as text or JSON, as often as asked, and clones', async () => {
    const response = new LightResponse(Buffer.from('{"accepted":2}'), {
      status: 201,
      statusText: 'Created',
      headers: [['Content-Type', 'application/json']],
      url: 'https://tm.example/api/v1/results/ingest',
    });
    expect([response.ok, response.status, response.statusText, response.url]).toEqual([
      true,
      201,
      'Created',
      'https://tm.example/api/v1/results/ingest',
    ]);
    expect(await response.clone().text()).toBe('{"accepted":2}');
    expect(await response.json()).toEqual({ accepted: 2 });
    expect(response.clone().headers.get('content-type')).toBe('application/json');
    const missing = new LightResponse(null, { status: 404 });
    expect([missing.ok, await missing.text(), missing.body]).toEqual([false, '', null]);
  });

  it('refuses a status fetch cannot represent, as fetch’s Response does', () => {
    for (const status of [101, 199, 600]) {
      expect(thrown(() => new Response(null, { status }))).toBe('RangeError');
      expect(thrown(() => new LightResponse(null, { status }))).toBe('RangeError');
    }
  });
});
