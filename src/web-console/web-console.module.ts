import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Module } from '@nestjs/common';
import { ServeStaticModule } from '@nestjs/serve-static';
import type { Response } from 'express';
import { isTraceViewerFile, traceViewerPolicy } from './trace-viewer.js';

/** Where the console is served: its pages and `assets/` below it. */
export const CONSOLE_PATH = '/console';

/**
 * The built console (`packages/console`, built by `npm run build`): `dist/console` of the
 * checkout, reached the same way from `src/web-console/` (tests) and `dist/web-console/`.
 */
export const CONSOLE_FILES = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/console');

/** Hashed file names change with their content, so a browser may keep them for good. */
const HASHED_ASSETS = `${sep}assets${sep}`;

/**
 * The page may load its own scripts, styles and data only; no framing, no inline script, no
 * plugin, no form posted elsewhere.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Playwright's trace viewer's policy (`trace-viewer.ts`), made once, on its first file. */
let viewerPolicy: string | null = null;

/**
 * The console's own headers (`X-Content-Type-Options` is every response's, `noSniff`); the
 * trace viewer's files (`/console/trace/`) have their own policy and are asked again each time
 * (their names, `sw.bundle.js` and `index.html` among them, do not all change with content).
 */
function setHeaders(res: Response, path: string): void {
  if (isTraceViewerFile(CONSOLE_FILES, path)) {
    viewerPolicy ??= traceViewerPolicy(join(CONSOLE_FILES, 'trace'));
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', viewerPolicy);
    res.setHeader('Referrer-Policy', 'no-referrer');
    return;
  }
  res.setHeader(
    'Cache-Control',
    path.includes(HASHED_ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * The web console, served by the API process at `/console`: its files as built, and
 * `index.html` for any other path below it (the console's own routes, so a shared link
 * opens its page). A missing asset, and everything outside `/console`, stays a 404 in the
 * API's envelope. The console calls `/internal/v1` with its session cookie.
 */
@Module({
  imports: [
    ServeStaticModule.forRoot({
      rootPath: CONSOLE_FILES,
      serveRoot: CONSOLE_PATH,
      renderPath: '/{*page}',
      exclude: [`${CONSOLE_PATH}/assets/{*file}`],
      // `/console` itself redirects to `/console/`, where the page's relative URLs resolve.
      serveStaticOptions: { cacheControl: false, setHeaders },
    }),
  ],
})
export class WebConsoleModule {}
