import http, { type ClientRequestArgs } from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { proxyConnectionError, proxyRefusal } from './proxy-errors.js';
import type { Proxy } from './proxy.js';

/**
 * https:// through a proxy: an HTTP CONNECT tunnel to the service's host and port, then TLS with
 * the service inside it (the proxy sees neither the key nor the reports). The agent keeps the
 * TLS connections open between calls as the direct one does: one tunnel serves a shard's calls.
 */

/** The request option that bounds the CONNECT: the attempt's timeout (transport.ts). */
export interface TunnelRequestOptions {
  tunnelTimeoutMs?: number;
}

/** Opens a CONNECT tunnel through `proxy` to `target` (`host:port`); the raw socket. */
function openTunnel(proxy: Proxy, target: string, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const request = proxy.url.protocol === 'https:' ? https.request : http.request;
    const req = request({
      host: proxy.url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: proxy.url.port || (proxy.url.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: target,
      headers: {
        host: target,
        ...(proxy.authorization ? { 'proxy-authorization': proxy.authorization } : {}),
      },
      agent: false,
    });
    const timer = setTimeout(
      () =>
        req.destroy(
          new Error(
            `the proxy ${proxy.name} (${proxy.variable}) did not open a tunnel in ${timeoutMs / 1000} s`,
          ),
        ),
      timeoutMs,
    ).unref();
    // Node answers a CONNECT with 'connect' whatever the status.
    req.once('connect', (res, socket, head) => {
      clearTimeout(timer);
      if (res.statusCode !== 200) {
        socket.destroy();
        return reject(proxyRefusal(proxy, target, res.statusCode ?? 0, res.statusMessage ?? ''));
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.once('error', (error) => {
      clearTimeout(timer);
      reject(proxyConnectionError(proxy, error));
    });
    req.end();
  });
}

/** Keep-alive TLS connections to https:// services, each through its own tunnel. */
export class TunnelAgent extends https.Agent {
  constructor(private readonly proxy: Proxy) {
    super({ keepAlive: true });
  }

  override createConnection(
    options: ClientRequestArgs & TunnelRequestOptions,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): undefined {
    const host = String(options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
    const port = Number(options.port ?? 443);
    const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    openTunnel(this.proxy, target, options.tunnelTimeoutMs ?? 300_000).then(
      (socket) => {
        const secure = tls.connect({
          ...(options as tls.ConnectionOptions),
          host,
          port,
          socket,
          // As https.Agent does: a server name for SNI, never an IP address.
          servername:
            (options as tls.ConnectionOptions).servername ?? (isIP(host) ? undefined : host),
        });
        callback?.(null, secure);
      },
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }
}
