/**
 * The part of fetch's Headers, Request and Response that openapi-fetch and the reporter use,
 * without undici. In Node the first use of the global `Headers`, `Request` or `Response` loads
 * undici, about 30 ms of CPU on Node 24 (a quarter of a shard process's), while the reporter
 * sends through node:http (transport.ts) and needs none of it. Bodies are buffered: no streams.
 *
 * The client passes `LightRequest` to openapi-fetch and the transport answers `LightResponse`;
 * the bundle (build.mjs) also gives openapi-fetch `LightHeaders` for its global `Headers`.
 */

type HeadersInit = Iterable<readonly [string, string]> | Record<string, string>;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

/** Case-insensitive header names; `append` joins values with ", " as fetch's Headers does. */
export class LightHeaders {
  readonly #values = new Map<string, string>();

  constructor(init?: HeadersInit | null) {
    if (!init) return;
    const entries = Symbol.iterator in init ? init : Object.entries(init);
    for (const [name, value] of entries as Iterable<readonly [string, string]>)
      this.append(name, value);
  }

  static #checked(name: string, value: unknown): [string, string] {
    const text = String(value).trim();
    if (!TOKEN.test(name)) throw new TypeError(`Headers: "${name}" is an invalid header name.`);
    if (FORBIDDEN_IN_VALUE.test(text))
      throw new TypeError(`Headers: the value of "${name}" is an invalid header value.`);
    return [name.toLowerCase(), text];
  }

  append(name: string, value: string): void {
    const [key, text] = LightHeaders.#checked(name, value);
    const before = this.#values.get(key);
    this.#values.set(key, before === undefined ? text : `${before}, ${text}`);
  }

  set(name: string, value: string): void {
    const [key, text] = LightHeaders.#checked(name, value);
    this.#values.set(key, text);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: LightHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  /** Sorted by name, as fetch's Headers iterate. */
  *entries(): IterableIterator<[string, string]> {
    yield* [...this.#values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

type Body = string | Uint8Array;

function bytesOf(body: Body | null): Buffer {
  if (body === null) return Buffer.alloc(0);
  return typeof body === 'string'
    ? Buffer.from(body)
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function arrayBufferOf(body: Body | null): ArrayBuffer {
  const bytes = bytesOf(body);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** A request as openapi-fetch builds it: an absolute URL, a method, headers, a string or bytes. */
export class LightRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: LightHeaders;
  readonly body: Body | null;

  constructor(
    input: string | URL,
    init: { method?: string; headers?: HeadersInit; body?: Body | null } = {},
  ) {
    this.url = new URL(input).href;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = new LightHeaders(init.headers);
    this.body = init.body ?? null;
    if (typeof this.body === 'string' && !this.headers.has('content-type'))
      this.headers.set('content-type', 'text/plain;charset=UTF-8');
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return arrayBufferOf(this.body);
  }

  async text(): Promise<string> {
    return bytesOf(this.body).toString('utf8');
  }
}

/** An answer read whole: `body` is null (no stream); read it with `text()` or `json()`. */
export class LightResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LightHeaders;
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  readonly body = null;
  /** The URL it came from, as fetch's answers carry (for messages about TM_URL). */
  url: string;
  readonly #content: Buffer;

  constructor(
    content: Buffer | null,
    init: { status: number; statusText?: string; headers?: HeadersInit; url?: string },
  ) {
    // As fetch's Response: a status it cannot represent (1xx, beyond 599) is a RangeError.
    if (!Number.isInteger(init.status) || init.status < 200 || init.status > 599)
      throw new RangeError(`Response: status ${init.status} is not in the range 200 to 599.`);
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.headers = new LightHeaders(init.headers);
    this.ok = init.status >= 200 && init.status <= 299;
    this.url = init.url ?? '';
    this.#content = content ?? Buffer.alloc(0);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return arrayBufferOf(this.#content);
  }

  async text(): Promise<string> {
    return this.#content.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#content.toString('utf8'));
  }

  clone(): LightResponse {
    return new LightResponse(this.#content, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
      url: this.url,
    });
  }
}

/** openapi-fetch asks `body instanceof FormData`; the reporter never sends a form. */
export class NoFormData {}
