import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go: public unicast addresses only. Loopback, private, link-local (cloud
 * metadata included), carrier-grade NAT, multicast, broadcast and reserved ranges are refused,
 * unless the host is listed in WEBHOOK_ALLOWED_HOSTS (local development and tests).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

export class AddressPolicy {
  private readonly allowed: Set<string>;

  constructor(allowedHosts: string[]) {
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
      addresses = await lookup(parsed.hostname.replace(/^\[|\]$/g, ''), {
        all: true,
        verbatim: true,
      });
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
    lookup(hostname, { all: true, verbatim: true }).then(
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
