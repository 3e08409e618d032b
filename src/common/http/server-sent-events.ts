import type { Response } from 'express';
import type { Observable } from 'rxjs';

/** How often a quiet stream sends a comment, so proxies and load balancers keep it open. */
const HEARTBEAT_MS = 15_000;

/**
 * Answers with a `text/event-stream` of `events`, each as an event of `type` with its JSON as
 * data, until the client leaves (which unsubscribes) or `events` completes. Called once the
 * request has been checked: an error thrown before it still gets the error envelope, which
 * Nest's `@Sse()` cannot promise behind interceptors (it may send its headers first).
 */
export function sendEvents<T>(response: Response, type: string, events: Observable<T>): void {
  response.status(200);
  response.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    // nginx (ingress-nginx) would otherwise buffer the stream.
    'X-Accel-Buffering': 'no',
  });
  response.flushHeaders();
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const subscription = events.subscribe({
    next: (event) => response.write(`event: ${type}\ndata: ${JSON.stringify(event)}\n\n`),
    error: () => response.end(),
    complete: () => response.end(),
  });
  response.on('close', () => {
    clearInterval(heartbeat);
    subscription.unsubscribe();
  });
}
