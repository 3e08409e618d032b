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

/** The service's error envelope (CONTRACT §1), as far as the reporter reads it. */
export interface ErrorEnvelope {
  error?: string;
  message?: string;
  details?: Record<string, unknown>;
}

export function asEnvelope(body: unknown): ErrorEnvelope {
  return typeof body === 'object' && body !== null ? (body as ErrorEnvelope) : {};
}

/** Turns an error answer of `what` (e.g. `POST /api/v1/testruns`) into a message that says why. */
export function serviceError(what: string, status: number, body: unknown): ReporterError {
  const { error, message, details = {} } = asEnvelope(body);
  if (status === 401) {
    return new ReporterError(
      'The service refused TM_API_KEY (401 unauthorized): the key is missing, malformed, unknown or deleted.',
    );
  }
  if (error === 'insufficient_scope') {
    const scopes = Array.isArray(details.required_scopes) ? details.required_scopes : [];
    return new ReporterError(
      `The API key lacks the scope ${scopes.join(' or ') || '(unnamed)'} that ${what} needs (403 insufficient_scope): create a key with it.`,
    );
  }
  if (error === 'plan_required') {
    return new ReporterError(
      `The organization's plan (${String(details.plan ?? 'basic')}) has no API access (403 plan_required).`,
    );
  }
  if (error === 'https_required') {
    return new ReporterError(
      'The service accepts only HTTPS (403 https_required): set TM_URL to its https:// address.',
    );
  }
  if (status === 404 && details.resource === undefined && what.includes('/api/v1/')) {
    return new ReporterError(
      `${what} answered 404 ${error ?? ''}: check TM_URL (the service's address, e.g. https://tm.example.com/api/v1) and the ids given.`,
    );
  }
  const field = typeof details.field === 'string' ? ` (field ${details.field})` : '';
  const text = message ?? (typeof body === 'string' ? body.slice(0, 200) : '');
  return new ReporterError(`${what} answered ${status} ${error ?? ''}: ${text}${field}`.trim());
}
