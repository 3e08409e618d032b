import { BlockList, isIP } from 'node:net';
import type { Env } from './config.js';
import { ReporterError } from './errors.js';
import { decoded, parseProxyUrl } from './proxy-url.js';

/**
 * Which proxy a call goes through, from the variables every CI runner and corporate network
 * sets: `https_proxy`/`HTTPS_PROXY` for https:// targets, `http_proxy`/`HTTP_PROXY` for http://
 * ones, `no_proxy`/`NO_PROXY` for the hosts reached directly (the lowercase name wins, as curl
 * and wget read them).
 */

/** A proxy as the transport speaks to it: its address without credentials, and those apart. */
export interface Proxy {
  /** `http://host:port` or `https://host:port`: no credentials, no path. */
  url: URL;
  /** `host:port`: what messages name (never the credentials). */
  name: string;
  /** The variable it came from, for messages. */
  variable: string;
  /** `Basic …` from the URL's user and password, when it has them. */
  authorization?: string;
}

export interface ProxySettings {
  https?: Proxy;
  http?: Proxy;
  noProxy: NoProxyRule[];
}

/** One entry of NO_PROXY: every host, a domain and its subdomains, or addresses (a CIDR). */
type NoProxyRule =
  | { kind: 'all' }
  | { kind: 'domain'; domain: string; port?: string }
  | { kind: 'addresses'; addresses: BlockList; port?: string };

function variableOf(env: Env, lower: string): { name: string; value: string } | undefined {
  for (const name of [lower, lower.toUpperCase()]) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function proxyFrom(env: Env, lower: string): Proxy | undefined {
  const variable = variableOf(env, lower);
  if (!variable) return undefined;
  const parsed = parseProxyUrl(variable.value);
  // The value is never echoed: it may hold the proxy's password.
  if (!parsed || !parsed.hostname) {
    throw new ReporterError(
      `${variable.name} is not a proxy address: give http://host:port (or http://user:password@host:port).`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ReporterError(
      `${variable.name} names a ${parsed.protocol.slice(0, -1)} proxy: tm-report speaks to http:// and https:// proxies only.`,
    );
  }
  const url = new URL(`${parsed.protocol}//${parsed.host}`);
  const proxy: Proxy = { url, name: url.host, variable: variable.name };
  if (parsed.username || parsed.password) {
    const credentials = `${decoded(parsed.username)}:${decoded(parsed.password)}`;
    proxy.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return proxy;
}

/** `[::1]` and `::1` alike, lowercase, without a trailing dot. */
function bareHost(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

function addressesOf(address: string, prefix?: number): BlockList | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  if (prefix === undefined) list.addAddress(address, type);
  else if (prefix >= 0 && prefix <= (family === 4 ? 32 : 128))
    list.addSubnet(address, prefix, type);
  else return undefined;
  return list;
}

/**
 * One NO_PROXY entry: `*`; a domain (`example.com`, `.example.com` and `*.example.com` alike
 * match it and its subdomains); an IP address or a CIDR (`10.0.0.0/8`, `[::1]`); any of those
 * but `*` and a CIDR with `:port`. An entry it cannot read is skipped: other tools share the list.
 */
function ruleOf(entry: string): NoProxyRule | undefined {
  if (entry === '*') return { kind: 'all' };
  const cidr = /^\[?([^\]/]+)\]?\/(\d{1,3})$/.exec(entry);
  if (cidr) {
    const addresses = addressesOf(cidr[1], Number(cidr[2]));
    return addresses && { kind: 'addresses', addresses };
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const hostPort = bracketed ?? (isIP(entry) === 6 ? null : /^([^:]+)(?::(\d+))?$/.exec(entry));
  const [host, port] = hostPort ? [hostPort[1], hostPort[2]] : [entry, undefined];
  const addresses = addressesOf(host);
  if (addresses) return { kind: 'addresses', addresses, port };
  const domain = bareHost(host.replace(/^\*?\./, ''));
  return /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(domain)
    ? { kind: 'domain', domain, port }
    : undefined;
}

/** The proxy variables of `env`; undefined when none names a proxy. */
export function proxySettingsFrom(env: Env): ProxySettings | undefined {
  const https = proxyFrom(env, 'https_proxy');
  const http = proxyFrom(env, 'http_proxy');
  if (!https && !http) return undefined;
  const noProxy = (variableOf(env, 'no_proxy')?.value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(ruleOf)
    .filter((rule) => rule !== undefined);
  return { https, http, noProxy };
}

function bypasses(rule: NoProxyRule, host: string, port: string): boolean {
  if (rule.kind === 'all') return true;
  if (rule.port !== undefined && rule.port !== port) return false;
  if (rule.kind === 'domain') return host === rule.domain || host.endsWith(`.${rule.domain}`);
  const family = isIP(host);
  return family !== 0 && rule.addresses.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The proxy a call to `url` goes through, or undefined to go directly. Host names are compared
 * as written (no DNS): `localhost` in NO_PROXY does not cover 127.0.0.1.
 */
export function proxyFor(settings: ProxySettings | undefined, url: URL): Proxy | undefined {
  const proxy = url.protocol === 'https:' ? settings?.https : settings?.http;
  if (!settings || !proxy) return undefined;
  const host = bareHost(url.hostname);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return settings.noProxy.some((rule) => bypasses(rule, host, port)) ? undefined : proxy;
}
