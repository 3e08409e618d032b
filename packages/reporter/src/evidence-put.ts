import type { Content } from './evidence-content.js';
import { backoffMs } from './retry.js';
import type { Transport } from './transport.js';

/** Where the service says to send an attachment's bytes (CONTRACT §15: `upload`). */
export interface UploadLink {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** After it the URL is refused (at least 15 minutes ahead when given). */
  expires_at?: string;
}

/** How uploads reach their URLs. */
export interface PutOptions {
  transport: Transport;
  /** The service's own origin (TM_URL's) and the headers a proxy before it needs (TM_EXTRA_HEADERS). */
  serviceOrigin: string;
  extraHeaders: Record<string, string>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  timeoutMs?: number;
}

/** Attempts of one upload: a network error or a 5xx is tried again, a 4xx is not. */
const MAX_ATTEMPTS = 3;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends the bytes to an upload link with exactly its headers (and their length): streamed, never
 * with the API key (the URL carries its own signature). To the service's own origin it adds
 * TM_EXTRA_HEADERS, which a proxy before the service needs for every request; to an object
 * store, nothing. A link over plain http is refused unless it is to this machine, as TM_URL's
 * is. Resolves with undefined once stored (2xx), else with why not.
 */
export async function putContent(
  link: UploadLink,
  content: Content,
  options: PutOptions,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(link.url);
  } catch {
    return 'the upload URL the service gave is not a URL';
  }
  if (link.method.toUpperCase() !== 'PUT') return `the service asks for ${link.method}, not PUT`;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname)))
    return `the upload URL is not https:// (${url.protocol}//${url.host})`;
  const headers: Record<string, string> = {
    ...(url.origin === options.serviceOrigin ? options.extraHeaders : {}),
    ...link.headers,
  };
  const sleep = options.sleep ?? sleepFor;
  let reason = '';
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (attempt > 1) await sleep(backoffMs(attempt - 2, options.random));
    try {
      const response = await options.transport(
        {
          method: 'PUT',
          url,
          headers,
          stream: { open: content.open, length: content.size },
        },
        options.timeoutMs ?? 300_000,
      );
      if (response.ok) return undefined;
      reason = `${url.host} answered ${response.status}`;
      if (response.status < 500) return reason;
    } catch (error) {
      const { code, message } = (error ?? {}) as { code?: string; message?: string };
      reason = `${url.host}: ${code ?? message ?? String(error)}`;
    }
  }
  return `${reason} (${MAX_ATTEMPTS} attempts)`;
}
