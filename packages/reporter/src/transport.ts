import type http from 'node:http';
import type { Readable } from 'node:stream';
import { ReporterError } from './errors.js';
import { proxyConnectionError, proxyRefusal } from './proxy-errors.js';
import { proxyFor, type Proxy, type ProxySettings } from './proxy.js';
import type { TunnelRequestOptions } from './proxy-tunnel.js';
import { LightResponse } from './web.js';

/** One attempt of a request, as the retrying fetch sends it (the body read once, sent as is). */
export interface Outgoing {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer;
  /**
   * A body streamed instead of held (an attachment's file, attachments.ts), of `length` bytes:
   * opened anew for each attempt.
   */
  stream?: { open(): Readable; length: number };
}

/** Sends one attempt; a network failure or a timeout rejects (never an HTTP status). */
export type Transport = (outgoing: Outgoing, timeoutMs: number) => Promise<Response>;

/**
 * How calls reach a target: the agent that keeps their connections open between calls (a shard
 * sends its reports over them) and the request function; `forwardProxy` for http:// through a
 * proxy, asked with the target's absolute URL (https:// goes through a tunnel, proxy-tunnel.ts).
 */
interface Route {
  agent: http.Agent;
  request: typeof http.request;
  forwardProxy?: Proxy;
}

/** Per protocol and proxy, one route for the process. */
const routes = new Map<string, Route>();

async function moduleFor(protocol: string) {
  // Loaded on the first request (not for --help or a dry run); node:https (and TLS) only for
  // an https:// service or proxy.
  return protocol === 'https:' ? await import('node:https') : await import('node:http');
}

async function newRoute(url: URL, proxy: Proxy | undefined): Promise<Route> {
  if (proxy && url.protocol === 'https:') {
    const [{ TunnelAgent }, https] = await Promise.all([
      import('./proxy-tunnel.js'),
      import('node:https'),
    ]);
    return { agent: new TunnelAgent(proxy), request: https.request };
  }
  const module = await moduleFor(proxy ? proxy.url.protocol : url.protocol);
  return {
    agent: new module.Agent({ keepAlive: true }),
    request: module.request,
    forwardProxy: proxy,
  };
}

async function routeOf(url: URL, proxy: Proxy | undefined): Promise<Route> {
  const key = proxy
    ? `${url.protocol} ${proxy.url.href} ${proxy.authorization ?? ''}`
    : url.protocol;
  let route = routes.get(key);
  if (!route) {
    route = await newRoute(url, proxy);
    routes.set(key, route);
  }
  return route;
}

/** The request's address and options on `route`. */
function requestOf(
  route: Route,
  outgoing: Outgoing,
  timeoutMs: number,
): [URL, http.RequestOptions & TunnelRequestOptions] {
  const headers: Record<string, string | number> = { ...outgoing.headers };
  if (outgoing.body) headers['content-length'] = outgoing.body.length;
  else if (outgoing.stream) {
    for (const name of Object.keys(headers))
      if (name.toLowerCase() === 'content-length') delete headers[name];
    headers['content-length'] = outgoing.stream.length;
  }
  const { agent, forwardProxy: proxy } = route;
  if (!proxy)
    return [outgoing.url, { method: outgoing.method, headers, agent, tunnelTimeoutMs: timeoutMs }];
  headers.host = outgoing.url.host;
  if (proxy.authorization) headers['proxy-authorization'] = proxy.authorization;
  return [proxy.url, { method: outgoing.method, headers, agent, path: outgoing.url.href }];
}

/**
 * The most of an answer read: the service's largest (a call of 5,000 results echoed back) is a
 * few MiB. A body beyond it is not the service's (a proxy or server streaming without end), and
 * is refused as it arrives, never held.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

function tooLarge(outgoing: Outgoing, size: string): ReporterError {
  return new ReporterError(
    `${outgoing.method} ${outgoing.url.pathname}: the answer is larger than ${MAX_ANSWER_BYTES / 1048576} MiB (${size}), more than the service ever sends; stopped reading it. Check that TM_URL is the service's address and that no proxy in between misbehaves. Not retrying.`,
  );
}

function timeoutError(ms: number): Error {
  return Object.assign(new Error(`no answer in ${ms / 1000} s`), { name: 'TimeoutError' });
}

/**
 * The reporter's transport: node:http(s) with keep-alive, answering with a fetch `Response` for
 * openapi-fetch (web.ts's, which needs no undici). Not undici's `fetch`: in a profile of a shard,
 * its first request (loading its dispatcher and compiling its WebAssembly HTTP parser) and its
 * stream-based bodies cost more CPU than the rest of the reporter; node:http's parser is built
 * in. Redirects are not followed: a redirect means TM_URL is not the API's address (the caller
 * says so). Calls go through the proxy `proxies` names for their URL (proxy.ts), if any.
 */
export function transportThrough(proxies: ProxySettings | undefined): Transport {
  return async (outgoing, timeoutMs) => {
    const route = await routeOf(outgoing.url, proxyFor(proxies, outgoing.url));
    const proxy = route.forwardProxy;
    return new Promise<Response>((resolve, reject) => {
      const req = route.request(...requestOf(route, outgoing, timeoutMs), (res) => {
        const refuse = (error: Error) => {
          clearTimeout(timer);
          reject(error);
          req.destroy();
        };
        // A forward proxy's own refusal (the service never asks for proxy credentials).
        if (proxy && res.statusCode === 407)
          return refuse(proxyRefusal(proxy, outgoing.url.host, 407, res.statusMessage ?? ''));
        const declared = Number(res.headers['content-length']);
        if (declared > MAX_ANSWER_BYTES)
          return refuse(tooLarge(outgoing, `${declared} bytes said`));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) refuse(tooLarge(outgoing, 'still arriving'));
          else chunks.push(chunk);
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        res.on('end', () => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          const answerHeaders: [string, string][] = [];
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
            answerHeaders.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
          const noBody = status === 204 || status === 304 || outgoing.method === 'HEAD';
          try {
            const response = new LightResponse(noBody ? null : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage,
              headers: answerHeaders,
              // As fetch's answers do: the URL it came from, for messages about TM_URL.
              url: outgoing.url.href,
            });
            // The subset of a fetch Response that openapi-fetch and the reporter read (web.ts).
            resolve(response as unknown as Response);
          } catch (error) {
            // A status fetch cannot represent (e.g. 1xx, or beyond 599): not an HTTP service.
            reject(error);
          }
        });
      });
      // Unref'd: the request itself keeps the process alive while it is open, the timer must not.
      const timer = setTimeout(() => req.destroy(timeoutError(timeoutMs)), timeoutMs).unref();
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(proxy ? proxyConnectionError(proxy, error) : error);
      });
      if (outgoing.stream) {
        const source = outgoing.stream.open();
        source.on('error', (error) => req.destroy(error));
        source.pipe(req);
      } else req.end(outgoing.body);
    });
  };
}

/** The transport without a proxy (tests, and the default of the retrying fetch). */
export const httpTransport: Transport = transportThrough(undefined);
