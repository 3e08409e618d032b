import type { Response } from 'express';
import type { Observable } from 'rxjs';

/**
 * Bytes a client may leave unread before its stream is ended: a viewer that does not read
 * would otherwise make the process hold every event for it. An EventSource reconnects and
 * starts again from the current state.
 */
const MAX_UNREAD_BYTES = 1024 * 1024;

/** Who holds a stream: the console session that opened it, or the operator token. */
export interface StreamHolder {
  /** Names the holder among the process's streams, whose share of them is bounded. */
  key: string;
  /** Asked on every heartbeat: false ends the stream (its session was signed out, or expired). */
  stillAdmitted(): Promise<boolean>;
}

export interface StreamOptions {
  /** How often a quiet stream sends a comment (so proxies and load balancers keep it open). */
  heartbeatMs: number;
  holder: StreamHolder;
}

/**
 * Answers with a `text/event-stream` of `events`, each as an event of `type` with its JSON as
 * data, until the client leaves (which unsubscribes), `events` completes, or the holder is no
 * longer admitted at a heartbeat. Called once the request has been checked: an error thrown
 * before it still gets the error envelope, which Nest's `@Sse()` cannot promise behind
 * interceptors (it may send its headers first). A client that left while it was being checked
 * is not subscribed at all: its `close` has already been emitted and would never unsubscribe it.
 */
export function sendEvents<T>(
  response: Response,
  type: string,
  events: Observable<T>,
  { heartbeatMs, holder }: StreamOptions,
): void {
  if (response.destroyed || response.socket === null || response.socket.destroyed) return;
  response.status(200);
  response.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    // nginx (ingress-nginx) would otherwise buffer the stream.
    'X-Accel-Buffering': 'no',
  });
  response.flushHeaders();
  const send = (text: string) => {
    if (response.writableEnded) return;
    if (response.writableLength > MAX_UNREAD_BYTES) response.destroy();
    else response.write(text);
  };
  let checking = false;
  const heartbeat = setInterval(() => {
    send(': keep-alive\n\n');
    if (checking) return;
    checking = true;
    holder
      .stillAdmitted()
      // A check that fails (the database away) keeps the stream: it is asked again next time.
      .then(
        (admitted) => admitted || response.end(),
        () => undefined,
      )
      .finally(() => (checking = false));
  }, heartbeatMs);
  heartbeat.unref();
  const subscription = events.subscribe({
    next: (event) => send(`event: ${type}\ndata: ${JSON.stringify(event)}\n\n`),
    error: () => response.end(),
    complete: () => response.end(),
  });
  response.on('close', () => {
    clearInterval(heartbeat);
    subscription.unsubscribe();
  });
}
