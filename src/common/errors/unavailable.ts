import { NETWORK_ERROR_CODES } from '../network-errors.js';

/** Seconds a client is told to wait (`Retry-After`) when a dependency is down. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL's SQLSTATEs of a database that cannot serve now: connection exceptions (class
 * 08), shutting down or starting (57P01–57P03), too many connections (53300), and a statement
 * cancelled by the statement timeout (57014).
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '57014'].includes(code);
}

/** What node-postgres says when a connection ends, or is not had, in time. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection closed/i;

/**
 * Whether an error means a dependency (PostgreSQL) is down or unreachable rather than a bug:
 * such a request answers 503 `service_unavailable` with `Retry-After` (CONTRACT §2), which a
 * client retries, instead of a 500. Looks through TypeORM's and Node's wrappers.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || isUnavailableState(code))) {
      return true;
    }
    if (DRIVER_MESSAGES.test(current.message)) return true;
    const wrapped = current as { driverError?: unknown; cause?: unknown };
    current = wrapped.driverError ?? wrapped.cause;
  }
  return false;
}
