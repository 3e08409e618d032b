import { ExpressAdapter } from '@nestjs/platform-express';

/**
 * A response whose status depends on the outcome (e.g. `POST /builds`: 202 when the build
 * waits in the queue, 201 when it was assigned). Handlers return it instead of the body.
 */
export class HttpResult<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

/** Express adapter that sends an `HttpResult` with its own status. */
export class ApiExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    if (body instanceof HttpResult) return super.reply(response, body.body, body.status);
    return super.reply(response, body, statusCode);
  }
}
