import { oneLine } from './output.js';

/** A failure the user can act on: the message says what went wrong and what to do. */
export class ReporterError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'ReporterError';
  }
}

/** A command line tm-report does not take: the message, then the usage it refers to. */
export class UsageError extends ReporterError {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The service's error envelope (CONTRACT §1), as far as the reporter reads it. */
export interface ErrorEnvelope {
  error?: string;
  message?: string;
  details?: Record<string, unknown>;
}

export function asEnvelope(body: unknown): ErrorEnvelope {
  return typeof body === 'object' && body !== null ? (body as ErrorEnvelope) : {};
}

/**
 * Turns an error answer of `what` (e.g. `POST /api/v1/testruns`) from `url` into a message that
 * says why.
 */
export function serviceError(
  what: string,
  status: number,
  body: unknown,
  url?: string,
): ReporterError {
  const envelope = asEnvelope(body);
  const details = envelope.details ?? {};
  // The service's words, kept to a line: a broken or hostile one may send anything.
  const error = envelope.error === undefined ? undefined : oneLine(envelope.error, 100);
  const message = envelope.message === undefined ? undefined : oneLine(envelope.message, 500);
  if (status === 401) {
    return new ReporterError(
      'The service refused TM_API_KEY (401 unauthorized): the key is missing, malformed, unknown or deleted.',
    );
  }
  if (error === 'insufficient_scope') {
    // Named by the call that needs it, not probed up front: a probe per scope would cost every
    // shard of a pipeline calls of the monthly quota.
    const scopes = Array.isArray(details.required_scopes) ? details.required_scopes : [];
    const purposes = scopes.flatMap((s) =>
      s in PURPOSE ? [PURPOSE[s as keyof typeof PURPOSE]] : [],
    );
    const purpose = purposes.length > 0 ? ` (${purposes.join(', ')})` : '';
    return new ReporterError(
      `The API key lacks the scope ${oneLine(scopes.join(' or ')) || '(unnamed)'}${purpose} that ${what} needs (403 insufficient_scope): give the key the scope, or create a key with it.`,
    );
  }
  if (error === 'plan_required') {
    return new ReporterError(
      `The organization's plan (${oneLine(details.plan ?? 'basic', 40)}) has no API access (403 plan_required).`,
    );
  }
  if (error === 'https_required') {
    return new ReporterError(
      'The service accepts only HTTPS (403 https_required): set TM_URL to its https:// address.',
    );
  }
  if (status === 404 && details.resource === undefined && what.includes('/api/v1/')) {
    return new ReporterError(
      `${what} answered 404 ${error ?? ''}: no such route${url ? ` (${urlWithoutQuery(url)})` : ''}; check TM_URL (the service's address, with or without /api/v1 once, e.g. https://tm.example.com/api/v1) and the ids given.`,
    );
  }
  const field = typeof details.field === 'string' ? ` (field ${oneLine(details.field, 100)})` : '';
  const text = message ?? (typeof body === 'string' ? oneLine(body) : '');
  return new ReporterError(`${what} answered ${status} ${error ?? ''}: ${text}${field}`.trim());
}

/** What each scope the reporter's calls need is for, said when a key lacks it. */
const PURPOSE = {
  'projects:read': 'to find the project of --project by its key',
  'builds:create': 'to register the build',
  'testruns:create': 'to create or join the run',
  'results:submit': 'to send the results',
  'testruns:update': 'to complete or reopen the run',
  'testruns:read': 'to read the run and its gate',
  'results:read': "to read the gate's comparison and failures",
} as const;

const urlWithoutQuery = (url: string) => url.split('?')[0];

const TM_URL_HINT =
  "TM_URL is not the service's API address: set it to the service's address, with or without /api/v1 once (e.g. https://tm.example.com/api/v1)";

/** What a Content-Type is, in words: `an HTML page`, `text/plain`, `no Content-Type`. */
function contentOf(type: string | null): string {
  const mediaType = type?.split(';')[0].trim().toLowerCase();
  if (!mediaType) return 'a body without Content-Type';
  return mediaType === 'text/html' ? 'an HTML page' : mediaType;
}

/**
 * An error when `response` cannot be the service's: every answer of its API (errors too) is
 * JSON, and it never redirects. A web page, a proxy's login or a redirect to another address
 * means TM_URL points somewhere else (another host, port or path).
 */
export function foreignAnswer(
  what: string,
  url: URL,
  response: Response,
): ReporterError | undefined {
  const { status } = response;
  const requested = `${url.origin}${url.pathname}`;
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location');
    return new ReporterError(
      `${what} was redirected (${status}${location ? ` to ${oneLine(location)}` : ''}) from ${requested}: ${TM_URL_HINT}.`,
    );
  }
  if (status === 204) return undefined;
  const type = response.headers.get('content-type');
  if (/^application\/([\w.+-]*\+)?json\b/i.test(type?.trim() ?? '')) return undefined;
  return new ReporterError(
    `${what} answered ${status} with ${contentOf(type)}, not the service's JSON, from ${requested}: ${proxyHint(status)}${TM_URL_HINT}.`,
  );
}

/**
 * What a proxy in front of the service may have done, by the status of its own (non-JSON)
 * answer: a wrong TM_URL gives a 200 or a 404 page, but a proxy that refuses one request after
 * others went through (nginx's default 1 MB body limit, a login it wants) says so by status.
 */
function proxyHint(status: number): string {
  if (status === 413) {
    return "a proxy in front of the service refused the request's size (raise its body limit, e.g. ingress-nginx's proxy-body-size, to 11m), or ";
  }
  if (status === 401 || status === 403 || status === 407) {
    return 'a proxy in front of the service wants credentials of its own (TM_EXTRA_HEADERS), or ';
  }
  return status >= 500 ? 'a proxy in front of the service failed, or ' : '';
}
