import type { Server } from 'node:http';
import type { INestApplication, LoggerService } from '@nestjs/common';
import type { Settings } from './config/settings.js';

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish, then close
 * queues and pools through Nest's shutdown hooks. A shutdown that takes longer than
 * SHUTDOWN_TIMEOUT_MS (25 s) exits anyway, within the pods' termination grace period.
 */
export function exitGracefullyOnSignals(
  app: INestApplication,
  settings: Settings,
  logger: LoggerService,
): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.log(`Received ${signal}: draining in-flight requests`, 'Lifecycle');
    setTimeout(() => {
      logger.error('Graceful shutdown timed out; exiting', undefined, 'Lifecycle');
      process.exit(1);
    }, settings.shutdownTimeoutMs).unref();

    drainHttpServer(app.getHttpServer() as Server)
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error(`Shutdown failed: ${String(error)}`, undefined, 'Lifecycle');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Resolves once every in-flight request has been answered; idle keep-alive sockets are closed. */
function drainHttpServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const reaper = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(reaper);
      resolve();
    });
  });
}
