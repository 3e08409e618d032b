import { ReporterError } from './errors.js';
import type { Proxy } from './proxy.js';

/**
 * What goes wrong between the reporter and a proxy, said about the proxy (its host and port and
 * the variable that named it, never its credentials), not about TM_URL.
 */

/** Network errors of reaching the proxy itself, named so the message points at the proxy. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
]);

/**
 * An error of the connection to `proxy` as the retrying fetch reads it: an unknown host is a
 * ReporterError (no retry mends it), an unreachable proxy a network error (retried) whose
 * message names it, without a `code` that would make it read as the service's.
 */
export function proxyConnectionError(proxy: Proxy, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ReporterError(
      `Cannot reach the proxy: its host ${proxy.url.hostname} (${proxy.variable}) is not known (DNS: ${code}); check ${proxy.variable}.`,
    );
  }
  if (typeof code === 'string' && UNREACHABLE.has(code))
    return new Error(
      `the connection to the proxy ${proxy.name} (${proxy.variable}) failed: ${code}`,
    );
  return error;
}

/** A proxy's answer that is not "tunnel open": what it means, and whether a retry may mend it. */
export function proxyRefusal(
  proxy: Proxy,
  target: string,
  status: number,
  statusText: string,
): Error {
  const answer = `${status}${statusText ? ` ${statusText}` : ''}`;
  if (status === 407) {
    return new ReporterError(
      proxy.authorization
        ? `The proxy ${proxy.name} (${proxy.variable}) refused its user and password (${answer}) for ${target}: check the credentials in ${proxy.variable}. Not retrying.`
        : `The proxy ${proxy.name} (${proxy.variable}) asks for credentials (${answer}) for ${target}: give them in ${proxy.variable} as http://user:password@${proxy.name}. Not retrying.`,
    );
  }
  if (status === 403) {
    return new ReporterError(
      `The proxy ${proxy.name} (${proxy.variable}) does not allow connections to ${target} (${answer}): ask its administrators to allow it, or, if the service is reachable directly, add its host to NO_PROXY. Not retrying.`,
    );
  }
  const why = `the proxy ${proxy.name} (${proxy.variable}) answered ${answer} to CONNECT ${target}`;
  // 5xx: the proxy could not reach the service (yet); a network error, retried.
  return status >= 500
    ? new Error(why)
    : new ReporterError(`${why[0].toUpperCase()}${why.slice(1)}. Not retrying.`);
}
