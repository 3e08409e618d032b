import { request, type APIRequestContext } from 'playwright-core';
import { freePort, spawnService, waitForOutput, type ServiceProcess } from '../support/process.js';
import { openBrowser, type Browser } from './browser.js';
import { freshDatabase } from './database.js';

/** The operator token the browser tests' service is started with. */
export const CONSOLE_TOKEN = 'console-operator-token-0123456789';

/**
 * How long a file's `beforeAll` gives `startConsoleStack`: the service's start takes ~2 s on a
 * quiet machine, but over 30 s was seen while other engineers' installs loaded both cores.
 */
export const STACK_START_MS = 120_000;

/** The built service (HTTPS, self-signed) on a database of its own, a browser and a client. */
export interface ConsoleStack {
  base: string;
  service: ServiceProcess;
  browser: Browser;
  /** Another client of the service (the operator, a pipeline), outside the browser. */
  outside: APIRequestContext;
  /** The service's database, for what no route does (what the worker's sweeps leave). */
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts `dist/main.js` as the api role on a fresh copy of the run's database (named with
 * `suffix`, one per test file), a headless chromium and a request context for it. `env` adds to or
 * replaces the service's settings (e.g. `APP_ROLE: 'all'` for the webhook worker too); as a
 * function, it is given the service's base URL first.
 */
export async function startConsoleStack(
  suffix: string,
  env: Record<string, string> | ((base: string) => Record<string, string>) = {},
): Promise<ConsoleStack> {
  const database = await freshDatabase(suffix);
  const port = await freePort();
  const base = `https://localhost:${port}`;
  const service = spawnService({
    DATABASE_URL: database.url,
    ADMIN_TOKEN: CONSOLE_TOKEN,
    APP_ROLE: 'api',
    PORT: String(port),
    TLS_SELF_SIGNED: 'true',
    ...(typeof env === 'function' ? env(base) : env),
  });
  await waitForOutput(service, /Listening on/, STACK_START_MS - 20_000);
  const browser = await openBrowser(base);
  const outside = await request.newContext({ baseURL: base, ignoreHTTPSErrors: true });
  return {
    base,
    service,
    browser,
    outside,
    databaseUrl: database.url,
    stop: async () => {
      await outside.dispose();
      await browser.close();
      if (service.child.pid !== undefined && service.child.exitCode === null) {
        process.kill(service.child.pid, 'SIGTERM');
        await service.exited;
      }
      await database.drop();
    },
  };
}
