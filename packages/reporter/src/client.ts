import createClient from 'openapi-fetch';
import type { Connection } from './config.js';
import { serviceError } from './errors.js';
import { retryingFetch, type RetryOptions } from './http.js';
import type { paths } from './schema.js';
import { LightRequest } from './web.js';

export type ServiceClient = ReturnType<typeof createClient<paths>>;

/** The typed client of `openapi.json` (src/schema.d.ts), sending through the retrying fetch. */
export function serviceClient(connection: Connection, retry: RetryOptions = {}): ServiceClient {
  return createClient<paths>({
    baseUrl: connection.baseUrl,
    headers: {
      ...connection.extraHeaders,
      Authorization: `Bearer ${connection.apiKey}`,
      'User-Agent': 'tm-report/0.1',
    },
    fetch: retryingFetch(retry),
    // Not the global Request, which loads undici (web.ts); the retrying fetch reads its URL,
    // method, headers and body.
    Request: LightRequest as unknown as typeof Request,
  });
}

/** The data of a successful call, else an error that says why it failed. */
export function dataOf<T>(
  what: string,
  result: { data?: T; error?: unknown; response: Response },
): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  throw serviceError(what, result.response.status, result.error, result.response.url);
}

export function replayed(response: Response): boolean {
  return response.headers.get('idempotent-replayed') === 'true';
}
