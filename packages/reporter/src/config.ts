import { ReporterError } from './errors.js';
import { proxySettingsFrom, type ProxySettings } from './proxy.js';

export type Env = Record<string, string | undefined>;

export interface Connection {
  /** The service's origin and any path before `/api/v1` (the client's paths carry it). */
  baseUrl: string;
  apiKey: string;
  /** `TM_EXTRA_HEADERS`: headers a proxy in front of the service needs, as a JSON object. */
  extraHeaders: Record<string, string>;
  /** `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (proxy.ts). */
  proxies?: ProxySettings;
}

const KEY_PATTERN = /^svc_live_[0-9a-f]{32,}$/;

/** Reads `TM_URL`, `TM_API_KEY`, `TM_EXTRA_HEADERS` and the proxy variables; the key is never part of a message. */
export function connectionFrom(env: Env): Connection {
  const url = env.TM_URL?.trim();
  if (!url) {
    throw new ReporterError(
      "TM_URL is not set: set it to the service's address, e.g. https://tm.example.com/api/v1.",
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ReporterError(`TM_URL is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ReporterError(`TM_URL must be an https:// address, not ${parsed.protocol}`);
  }
  if (parsed.protocol === 'http:' && !isLoopback(parsed.hostname)) {
    throw new ReporterError(
      `TM_URL is a plain http:// address of ${parsed.hostname}: TM_API_KEY would cross the network unencrypted. Use the service's https:// address (plain http is only for this machine: localhost, 127.0.0.0/8, ::1).`,
    );
  }
  const apiKey = env.TM_API_KEY?.trim();
  if (!apiKey) {
    throw new ReporterError(
      'TM_API_KEY is not set: create an API key for the project (scopes testruns:create, results:submit, projects:read, …) and pass it as a CI secret.',
    );
  }
  if (!KEY_PATTERN.test(apiKey)) {
    throw new ReporterError(
      'TM_API_KEY does not look like an API key of the service (svc_live_ followed by hex); check the secret.',
    );
  }
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return {
    baseUrl: `${parsed.origin}${path}`,
    apiKey,
    extraHeaders: extraHeadersFrom(env.TM_EXTRA_HEADERS),
    proxies: proxySettingsFrom(env),
  };
}

/** This machine's own addresses, which no network sits between: a URL's hostname. */
export function isLoopback(hostname: string): boolean {
  // The URL parser writes IPv4 in dotted decimal (127.1 and 0x7f.0.0.1 too) and IPv6 in brackets.
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function extraHeadersFrom(value: string | undefined): Record<string, string> {
  if (!value?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ReporterError('TM_EXTRA_HEADERS must be a JSON object of header names to values.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ReporterError('TM_EXTRA_HEADERS must be a JSON object of header names to values.');
  }
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(parsed)) {
    if (name.toLowerCase() === 'authorization') continue;
    headers[name] = String(v);
  }
  return headers;
}
