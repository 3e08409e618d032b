import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from 'proxy-addr';
import type { Settings } from '../../config/settings.js';
import { addressKey } from './address-key.js';

/**
 * How long a connection may take to send a request's headers (and, over TLS, to finish its
 * handshake): a client that sends them slowly, or never, is answered 408 and closed after this
 * instead of Node's 60 s (120 s for a handshake). A client on the slowest network sends its
 * headers (at most 16 KiB) within a second.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How long a whole request may take to arrive, body included, instead of Node's 300 s: a
 * 10 MiB report at 1 Mbit/s takes 84 s.
 */
export const REQUEST_TIMEOUT_MS = 120_000;
/** How often Node looks for connections past those times (its default, 30 s, adds up to 30 s). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * Bounds what slow or numerous connections can hold (a slowloris flood): the times above, at
 * most `maxConnections` open connections per process, and at most `maxConnectionsPerAddress`
 * per client address. Over the limit, a connection is closed as it is accepted, before any TLS
 * handshake.
 *
 * At the TCP level the only address known is the socket's peer. Behind a proxy that is the
 * proxy, whose connections carry every client's requests (an ingress keeps hundreds open), so a
 * peer that `TRUST_PROXY` trusts is bounded only by the per-process cap; its clients are the
 * proxy's to bound. Clients that connect directly (TLS in the process) are capped by address.
 */
export function boundConnections(server: Server, settings: Settings): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  // Read when the server starts listening, so it takes effect here (after its creation).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    TIMEOUT_CHECK_INTERVAL_MS;
  server.maxConnections = settings.maxConnections;
  capConnectionsPerAddress(server, settings);
}

function capConnectionsPerAddress(server: Server, settings: Settings): void {
  const isProxy = trustsPeer(settings.trustProxy);
  const open = new Map<string, number>();
  // First of the 'connection' listeners: a refused socket is never wrapped in TLS or parsed.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || isProxy(address)) return;
    const key = addressKey(address);
    const count = open.get(key) ?? 0;
    if (count >= settings.maxConnectionsPerAddress) return void socket.destroy();
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** Whether a socket's peer is a proxy `TRUST_PROXY` trusts (Express's rule for the nearest hop). */
function trustsPeer(trustProxy: Settings['trustProxy']): (address: string) => boolean {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const trusted = proxyAddr.compile(trustProxy);
  return (address) => trusted(address, 0);
}
