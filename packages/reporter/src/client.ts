import createClient from 'openapi-fetch';
import type { Connection } from './config.js';
import { ReporterError, serviceError } from './errors.js';
import { retryingFetch, type RetryOptions } from './http.js';
import { oneLine } from './output.js';
import type { paths } from './schema.js';
import { transportThrough } from './transport.js';
import { LightRequest } from './web.js';

export type ServiceClient = ReturnType<typeof createClient<paths>>;

const METHODS = ['GET', 'POST', 'PATCH'] as const;

/** The typed client of `openapi.json` (src/schema.d.ts), sending through the retrying fetch. */
export function serviceClient(connection: Connection, retry: RetryOptions = {}): ServiceClient {
  const client = createClient<paths>({
    baseUrl: connection.baseUrl,
    headers: {
      ...connection.extraHeaders,
      Authorization: `Bearer ${connection.apiKey}`,
      'User-Agent': 'tm-report/0.1',
    },
    fetch: retryingFetch({
      ...retry,
      transport: retry.transport ?? transportThrough(connection.proxies),
    }),
    // Not the global Request, which loads undici (web.ts); the retrying fetch reads its URL,
    // method, headers and body.
    Request: LightRequest as unknown as typeof Request,
  });
  for (const method of METHODS) client[method] = withJsonChecked(method, client[method]);
  return client;
}

/**
 * A call whose successful answer is not JSON fails saying so: openapi-fetch parses it after the
 * retrying fetch returned it, and JSON.parse's SyntaxError would be an unexpected error.
 */
function withJsonChecked<T extends (path: never, ...rest: never[]) => Promise<unknown>>(
  method: string,
  call: T,
): T {
  return (async (path: never, ...rest: never[]) => {
    try {
      return await call(path, ...rest);
    } catch (error) {
      // By name, not instanceof: the parse may run in another realm than this module (tests).
      if ((error as Error)?.name !== 'SyntaxError') throw error;
      throw new ReporterError(
        `${method} ${String(path)} answered with a body that is not valid JSON (${oneLine((error as Error).message, 120)}): check that TM_URL is the service's address and that no proxy in between rewrites its answers.`,
      );
    }
  }) as T;
}

/** The data of a successful call, else an error that says why it failed. */
export function dataOf<T>(
  what: string,
  result: { data?: T; error?: unknown; response: Response },
): T {
  if (result.response.ok && typeof result.data === 'object' && result.data !== null)
    return result.data;
  if (result.response.ok) {
    throw new ReporterError(
      `${what} answered ${result.response.status} without the JSON object the service sends: check that TM_URL is the service's address.`,
    );
  }
  throw serviceError(what, result.response.status, result.error, result.response.url);
}

export function replayed(response: Response): boolean {
  return response.headers.get('idempotent-replayed') === 'true';
}
