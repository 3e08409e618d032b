import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

const v4 = (list: string[]) => list.map((cidr) => ipaddr.IPv4.parseCIDR(cidr));
const v6 = (list: string[]) => list.map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/**
 * IPv4 ranges that are not globally reachable (IANA IPv4 Special-Purpose Address Registry),
 * with multicast and broadcast.
 */
const NON_GLOBAL_IPV4 = v4([
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (carrier-grade NAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (cloud metadata)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // 6to4 relay anycast (deprecated)
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the limited broadcast address
]);

/** The IPv6 global unicast block; everything outside it (loopback, ULA, link- and site-local, multicast, IPv4-compatible, discard, NAT64 local use) is refused. */
const GLOBAL_UNICAST_IPV6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** Inside 2000::/3 but not globally reachable (IANA IPv6 Special-Purpose Address Registry). */
const NON_GLOBAL_IPV6 = v6([
  '2001::/23', // IETF protocol assignments (Teredo, benchmarking, ORCHID…), but see below
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: carries an IPv4 address of any kind
  '3fff::/20', // documentation
]);

/** The globally reachable assignments inside 2001::/23. */
const GLOBAL_IN_IETF_BLOCK = v6([
  '2001:1::1/128', // Port Control Protocol anycast
  '2001:1::2/128', // TURN anycast
  '2001:1::3/128', // DNS-SD service registration
  '2001:3::/32', // AMT
  '2001:4:112::/48', // AS112-v6
  '2001:20::/28', // ORCHIDv2
  '2001:30::/28', // drone remote ID
]);

/** NAT64's well-known prefix: the address it reaches is the IPv4 address in its last 32 bits. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

function isGlobalIPv4(address: ipaddr.IPv4): boolean {
  return !NON_GLOBAL_IPV4.some((range) => address.match(range));
}

/**
 * Where webhooks may go: globally reachable unicast addresses only (CONTRACT §7), by the IANA
 * special-purpose registries. An IPv6 address that carries an IPv4 one (mapped, or NAT64's
 * well-known prefix) is judged by that IPv4 address. Everything else is refused unless the
 * host is listed in WEBHOOK_ALLOWED_HOSTS (local development and tests).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return isGlobalIPv4(parsed as ipaddr.IPv4);
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return isGlobalIPv4(ipv6.toIPv4Address());
  if (ipv6.match(NAT64)) return isGlobalIPv4(new ipaddr.IPv4(ipv6.toByteArray().slice(12)));
  if (!ipv6.match(GLOBAL_UNICAST_IPV6)) return false;
  return (
    !NON_GLOBAL_IPV6.some((range) => ipv6.match(range)) ||
    GLOBAL_IN_IETF_BLOCK.some((range) => ipv6.match(range))
  );
}

/** Resolves a host name to every address it has (what `dns.lookup` with `all` returns). */
export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

/**
 * Nest token of a `HostLookup` that replaces the system resolver; only tests provide one, to
 * make a name resolve where they need it (DNS rebinding) without a DNS server.
 */
export const HOST_LOOKUP = Symbol('HOST_LOOKUP');

const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true, verbatim: true });

export class AddressPolicy {
  private readonly allowed: Set<string>;

  constructor(
    allowedHosts: string[],
    private readonly resolve: HostLookup = systemLookup,
  ) {
    this.allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  }

  isAllowedHost(hostname: string): boolean {
    return this.allowed.has(hostname.toLowerCase().replace(/^\[|\]$/g, ''));
  }

  /** Why a subscription URL is refused, or null when it may be used. */
  async problemWith(url: string): Promise<string | null> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'url must be an absolute https URL';
    }
    if (parsed.username || parsed.password) return 'url must not carry credentials';
    const allowedHost = this.isAllowedHost(parsed.hostname);
    if (parsed.protocol !== 'https:' && !(allowedHost && parsed.protocol === 'http:')) {
      return 'url must use https';
    }
    if (allowedHost) return null;
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(parsed.hostname.replace(/^\[|\]$/g, ''));
    } catch {
      return `url's host ${parsed.hostname} does not resolve`;
    }
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    return refused ? `url resolves to a non-public address (${refused.address})` : null;
  }

  /**
   * A `lookup` for Node's HTTP clients that refuses non-public addresses at connection time,
   * so a host that resolves elsewhere after the subscription was checked (DNS rebinding)
   * is still refused, on the very address the socket would use.
   */
  readonly connectLookup = (
    hostname: string,
    options: { family?: number; all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    this.resolve(hostname).then(
      (addresses) => {
        const usable = this.isAllowedHost(hostname)
          ? addresses
          : addresses.filter((a) => isPublicAddress(a.address));
        if (usable.length === 0) {
          callback(new Error(`refused: ${hostname} resolves only to non-public addresses`), []);
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, usable[0].address, usable[0].family);
        }
      },
      (error: Error) => callback(error, []),
    );
  };
}
