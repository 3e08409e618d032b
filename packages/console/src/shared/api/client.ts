import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../schema';

export type Organization = components['schemas']['OrganizationResponse'];
export type Session = components['schemas']['SessionResponse'];
export type Limits = components['schemas']['LimitsResponse'];
type ErrorEnvelope = components['schemas']['ErrorEnvelopeDto'];

/** An answer other than success, with the service's error envelope when it sent one. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope | undefined,
  ) {
    super(envelope?.message ?? `The service answered ${status}.`);
  }

  /** The request field the service named as the first one at fault. */
  get field(): string | undefined {
    const field = this.envelope?.details?.field;
    return typeof field === 'string' ? field : undefined;
  }
}

export const SESSION_PATH = '/internal/v1/session';
const CSRF_HEADER = 'X-CSRF-Token';
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The session's CSRF token: in memory only, read from the session's JSON on each load. */
let csrfToken: string | null = null;
export function rememberCsrfToken(token: string | null): void {
  csrfToken = token;
}

let sessionLost: () => void = () => undefined;
/** What to do when a call answers 401 (the session expired or was signed out elsewhere). */
export function whenSessionLost(listener: () => void): void {
  sessionLost = listener;
}

/**
 * The browser's credential is the httpOnly session cookie, which it sends by itself; a change
 * also echoes the CSRF token. A 401 from anything but the session's own routes means the
 * session is gone.
 */
const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    if (!SAFE_METHODS.has(request.method) && csrfToken !== null) {
      request.headers.set(CSRF_HEADER, csrfToken);
    }
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && new URL(request.url).pathname !== SESSION_PATH) sessionLost();
    return response;
  },
};

/** The internal API, typed from internal-openapi.json (`npm run openapi`). */
export const api = createClient<paths>({
  baseUrl: window.location.origin,
  credentials: 'same-origin',
});
api.use(sessionMiddleware);

/** The body of a successful call; an `ApiFailure` otherwise. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiFailure(response.status, error as ErrorEnvelope | undefined);
  return data as T;
}
